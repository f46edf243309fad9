#!/bin/bash
# World: ~/event_comparison with three subfolders, each holding an X.json / X_new.json pair:
# two pairs differ in structure (a renamed key, a type change), one does not.
set -euo pipefail
B=/home/user/event_comparison
mkdir -p "$B/concerts" "$B/sports" "$B/theatre"
cat > "$B/concerts/events.json" <<'J'
[{"id": 1, "title": "Spring Gala", "venue": {"name": "Hall A", "city": "Graz"}, "price": 45.0},
 {"id": 2, "title": "Jazz Night", "venue": {"name": "Cellar", "city": "Graz"}, "price": 20.0}]
J
cat > "$B/concerts/events_new.json" <<'J'
[{"id": 1, "title": "Spring Gala", "venue": {"name": "Hall A", "city": "Graz"}, "ticket_url": "https://t.example/1"},
 {"id": 2, "title": "Jazz Night", "venue": {"name": "Cellar", "city": "Graz"}, "ticket_url": "https://t.example/2"}]
J
cat > "$B/sports/matches.json" <<'J'
{"season": 2024, "matches": [{"home": "SK", "away": "GAK", "kickoff": "2024-03-02T18:00"}]}
J
cat > "$B/sports/matches_new.json" <<'J'
{"season": 2024, "matches": [{"home": "SK", "away": "LASK", "kickoff": "2024-03-09T17:00"}]}
J
cat > "$B/theatre/shows.json" <<'J'
{"shows": [{"name": "Hamlet", "duration": 180, "cast": ["A", "B"]}]}
J
cat > "$B/theatre/shows_new.json" <<'J'
{"shows": [{"name": "Hamlet", "duration": "3h", "cast": ["A", "B"]}]}
J
printf 'Exports from the old and the new event API (v1 vs v2), one pair per category.\n' > "$B/README.txt"
