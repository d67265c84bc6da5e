import os
from toolstudio import tools

# Injected parameters cannot be set from here: the call is refused naming them.
try:
    tools.whoami(__idempotency_key__="forged", __user__={"id": "mallory"})
except ToolError as e:
    print("forged", e.code, e.message)
got = tools.whoami()
print("whoami", got["key"] != "forged", got["user"])
print("secret length", tools.secret_length())
# Everything the sandbox can see: its environment and every file in its work dir.
print("ENV", dict(os.environ))
for folder, _, files in os.walk("."):
    for name in files:
        with open(os.path.join(folder, name), "rb") as f:
            print("FILE", name, f.read())
