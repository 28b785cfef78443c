// The Vercel AI SDK against the gateway, one case a run (bench/agents).
//
//   node ai_sdk.mjs <provider> <case> <base url> <model>
//
// provider: openai-chat, openai-responses, anthropic or google (the SDK's
// provider package, and which of the gateway's APIs it speaks); case: tool
// (generateText with a tool loop), stream (streamText with the same loop),
// structured (generateText with a tool and Output.object), 429 (the tool
// loop, whose first answer is a 429) and broken (streamText, whose first
// stream is cut). The key is INTERLINGUA_GATEWAY_KEY. Prints one JSON line:
// {"text", "object", "steps", "error"}.
import { generateText, isStepCount, Output, streamText, tool } from "ai";
import { createAnthropic } from "@ai-sdk/anthropic";
import { createGoogleGenerativeAI } from "@ai-sdk/google";
import { createOpenAI } from "@ai-sdk/openai";
import { z } from "zod";

const [provider, kase, baseUrl, modelName] = process.argv.slice(2);
const apiKey = process.env.INTERLINGUA_GATEWAY_KEY;
const TOOL_WORD = "interlingua-tool-ok";

const models = {
  "openai-chat": () => createOpenAI({ baseURL: `${baseUrl}/v1`, apiKey }).chat(modelName),
  "openai-responses": () => createOpenAI({ baseURL: `${baseUrl}/v1`, apiKey }).responses(modelName),
  anthropic: () => createAnthropic({ baseURL: `${baseUrl}/v1`, apiKey })(modelName),
  google: () => createGoogleGenerativeAI({ baseURL: `${baseUrl}/v1beta`, apiKey })(modelName),
};

const tools = {
  get_weather: tool({
    description: "Gives the weather in a city now.",
    inputSchema: z.object({ city: z.string().describe("The city's name") }),
    execute: async ({ city }) => `${TOOL_WORD}: 21 C and sunny in ${city}`,
  }),
};

const forecast = z.object({
  city: z.string(),
  conditions: z.enum(["lisbon", "sunny", "rain"]),
  temperature: z.number(),
  warnings: z.array(z.string()),
});

const prompt = "What is the weather in Lisbon? Use the tool, then answer in one sentence.";

async function run() {
  const common = { model: models[provider](), tools, stopWhen: isStepCount(4), prompt };
  if (kase === "structured") {
    const result = await generateText({ ...common, output: Output.object({ schema: forecast }) });
    return { text: result.text, object: result.output, steps: result.steps.length };
  }
  if (kase === "stream" || kase === "broken") {
    const errors = [];
    const result = streamText({ ...common, onError: ({ error }) => errors.push(error) });
    let text = "";
    for await (const part of result.textStream) text += part;
    if (errors.length) throw errors[0];
    return { text, steps: (await result.steps).length };
  }
  const result = await generateText(common);
  return { text: result.text, steps: result.steps.length };
}

try {
  console.log(JSON.stringify(await run()));
} catch (error) {
  const cause = error?.lastError ?? error;
  const named = [cause?.name, cause?.statusCode, cause?.message].filter(Boolean).join(" ");
  console.log(JSON.stringify({ error: named.slice(0, 500) }));
  process.exitCode = 1;
}
