# An agent script. Add a tool (File ▸ New Tool…, or "tools" in toolstudio.json) and
# call it here as a function: every tool bound to this script is a global.
print("Hello from Tool Studio")
