from toolstudio import tools

for label, call in [
    ("extra", lambda: tools.search(q="x", colour="red")),
    ("injected", lambda: tools.search(q="x", __user__={"id": "mallory"})),
    ("injected-kwargs", lambda: tools.search_any(q="x", __event_emitter__=None)),
]:
    try:
        print(label, "ok", call())
    except ToolError as e:
        print(label, e.code, e.message)
print("kwargs", tools.search_any(q="x", colour="red"))
print("strict", tools.ship(address=None, note=None))
