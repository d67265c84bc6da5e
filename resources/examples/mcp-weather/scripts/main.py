# MCP tools are named SERVER__TOOL; a tool bound to this script is a global function.
# A result with structuredContent is that value (checked against the outputSchema).
forecast = weather__forecast(city="Lisbon", days=2)
for day in forecast["days"]:
    print(f"Lisbon, day {day['day']}: {day['sky']}, {day['high_c']} °C")
