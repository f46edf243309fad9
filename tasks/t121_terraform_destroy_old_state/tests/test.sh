#!/bin/bash
# Goal: nothing the interrupted apply created is left in the account.
fail=0
for d in aws_vpc/vpc-0f3c9d2e8b7a61450 aws_subnet/subnet-0f3d14a6b2c8e9077 aws_security_group/sg-0f3e5c2a9d1b7e603 aws_s3_bucket/aishippinglabs-site; do
  [ -e "/srv/aws/$d" ] && { echo "still there: $d"; fail=1; }
done
[ "$fail" = 0 ] && echo "ok: the interrupted apply's resources are gone"
exit $fail
