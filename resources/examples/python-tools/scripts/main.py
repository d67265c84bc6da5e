# Python tools from tools/weather.py are global functions here, like any tool.
import asyncio
from toolstudio import tools, ToolError

print("Paris:", get_temperature(city="Paris"), "C")
print("Oslo:", get_temperature("Oslo", "fahrenheit"), "F")
print("98.6 F =", convert(98.6), "C")

async def main():
    days = await asyncio.gather(tools.forecast("Cairo", 2), tools.forecast(city="Lima"))
    for city in days:
        print(city[0]["note"], [d["celsius"] for d in city])

asyncio.run(main())

try:
    get_temperature(city="Atlantis")
except ToolError as e:
    print("refused:", e.code, "-", e.message, "(retryable)" if e.retryable else "(not retryable)")

print("API key configured:", api_status()["configured"])
