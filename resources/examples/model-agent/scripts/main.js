// The stock agent loop in Node (docs/models.md), with the scripted mock model.
const { agent } = require("toolstudio");

(async () => {
  const result = await agent("How many USD are 100 EUR?", {
    model: "scripted",
    system: "You convert currencies with get_exchange_rate.",
  });
  console.log(result.text);
  console.log(`${result.turns} model turns, ${result.usage.input_tokens} + ${result.usage.output_tokens} tokens`);
})();
