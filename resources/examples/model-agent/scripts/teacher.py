# A person plays the model (`teacher` is a manual model): each model turn waits in
# Pending Calls, which shows the conversation and a composer. Pick get_exchange_rate,
# fill in base and quote, Send Reply; when the result is back, write the answer as text.
# Headless: toolstudio answer PROJECT RUN CALL --result '{"content": "…"}'.
import toolstudio

result = toolstudio.agent("How many USD are 100 EUR?", model="teacher",
                          system="You convert currencies with get_exchange_rate.")
print(result.text)
print(f"{result.turns} model turns")
