# The same loop against a local model server: `local` is Ollama's OpenAI-compatible
# endpoint (qwen2.5:7b on 127.0.0.1:11434; change base_url and model in toolstudio.json
# for llama.cpp's server, vLLM or LM Studio). Without that server, replay the recorded
# run offline from its cassette:
#   toolstudio replay PROJECT - --cassette cassettes/local.cassette.json
# The cassette was recorded from Tool Studio's fake model server (no real model), so
# its reply is the fake's, not qwen's.
import toolstudio

result = toolstudio.agent("How many USD are 100 EUR?", model="local",
                          system="You convert currencies with get_exchange_rate.")
print(result.text)
print(f"{result.turns} model turns, {result.usage['input_tokens']} + {result.usage['output_tokens']} tokens")
