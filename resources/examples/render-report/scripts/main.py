# The call waits in "Pending calls" until a person sends the report's URL.
from toolstudio import tools

url = tools.render_report(topic="Q3 seat growth")
print(f"Report ready: {url}")
