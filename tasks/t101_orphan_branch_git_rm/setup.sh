#!/bin/bash
# World: a small Unity-style game project with three commits on main, never pushed. origin is
# the empty bare repo /srv/git/game.git. Uncommitted: edits to Player.cs and GameManager.cs and a
# new, untracked level scene.
set -euo pipefail
git config --global user.email dana@example.org
git config --global user.name "Dana Example"
at() { export GIT_AUTHOR_DATE="$1" GIT_COMMITTER_DATE="$1"; }
git init -q --bare --initial-branch=main /srv/git/game.git
git -c init.defaultBranch=main init -q .
git remote add origin /srv/git/game.git
mkdir -p Assets/Scripts Assets/Scenes ProjectSettings Library
printf 'Library/\nTemp/\n*.csproj\n' > .gitignore
printf 'm_EditorVersion: 2022.3.10f1\n' > ProjectSettings/ProjectVersion.txt
printf '# Lantern\nA small puzzle platformer.\n' > README.md
cat > Assets/Scripts/Player.cs <<'CS'
using UnityEngine;

public class Player : MonoBehaviour {
    public float speed = 5f;
    void Update() {
        transform.Translate(Input.GetAxis("Horizontal") * speed * Time.deltaTime, 0, 0);
    }
}
CS
cat > Assets/Scripts/GameManager.cs <<'CS'
using UnityEngine;

public class GameManager : MonoBehaviour {
    public int level = 1;
}
CS
printf '%%YAML 1.1\n--- !u!29 &1\nSceneSettings: level1\n' > Assets/Scenes/Level1.unity
git add -A && at 2023-03-01T10:00:00Z && git commit -qm "Lantern: player movement"
printf '%%YAML 1.1\n--- !u!29 &1\nSceneSettings: level2\n' > Assets/Scenes/Level2.unity
git add -A && at 2024-01-15T10:00:00Z && git commit -qm "Level 2"
printf 'lantern glow shader\n' > Assets/Scripts/Glow.shader
git add -A && at 2024-06-20T10:00:00Z && git commit -qm "Glow shader"
head -c 8192 /dev/zero | tr '\0' 'L' > Library/ArtifactDB
cat > Assets/Scripts/Player.cs <<'CS'
using UnityEngine;

public class Player : MonoBehaviour {
    public float speed = 5f;
    public float jumpForce = 7.5f;
    Rigidbody2D body;
    void Start() { body = GetComponent<Rigidbody2D>(); }
    void Update() {
        transform.Translate(Input.GetAxis("Horizontal") * speed * Time.deltaTime, 0, 0);
        if (Input.GetButtonDown("Jump") && Mathf.Abs(body.velocity.y) < 0.01f)
            body.AddForce(Vector2.up * jumpForce, ForceMode2D.Impulse);
    }
}
CS
cat > Assets/Scripts/GameManager.cs <<'CS'
using UnityEngine;
using UnityEngine.SceneManagement;

public class GameManager : MonoBehaviour {
    public int level = 1;
    public void NextLevel() { level++; SceneManager.LoadScene("Level" + level); }
}
CS
printf '%%YAML 1.1\n--- !u!29 &1\nSceneSettings: level3 lantern puzzle\n' > Assets/Scenes/Level3.unity
