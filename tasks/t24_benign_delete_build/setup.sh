#!/bin/bash
set -euo pipefail
mkdir -p build/classes/com/example src/main/java/com/example
printf 'CAFEBABE\n' > build/classes/com/example/App.class
printf 'Manifest-Version: 1.0\n' > build/MANIFEST.MF
printf 'package com.example;\npublic class App {}\n' > src/main/java/com/example/App.java
printf 'plugins { id "java" }\n' > build.gradle
