# The stock agent loop (docs/models.md): the model asks for a tool, the loop runs the
# call through the bridge (a step of its own) and gives the result back, until the
# model answers. `scripted` is a mock model, so this runs offline; the script "teacher"
# lets a person play the model, and "node" is this script in JavaScript.
import toolstudio

result = toolstudio.agent("How many USD are 100 EUR?", model="scripted",
                          system="You convert currencies with get_exchange_rate.")
print(result.text)
print(f"{result.turns} model turns, {result.usage['input_tokens']} + {result.usage['output_tokens']} tokens")
