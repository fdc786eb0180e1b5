// A function-call bridge from the Python adapter to the engine's TypeScript
// core: one JSON request a line on stdin, {"module", "fn", "args"}, one JSON
// answer a line on stdout, {"ok": true, "result", "args"} (the arguments after
// the call, since the engine mutates its state in place) or {"ok": false,
// "error"}. Usage: node bridge.mjs CHECKOUT
import { register } from 'node:module'
import { pathToFileURL } from 'node:url'
import readline from 'node:readline'

const checkout = process.argv[2]
register(new URL('./ts-hooks.mjs', import.meta.url), { data: { checkout } })
const core = {}
for (const name of ['rules', 'state', 'cards', 'melds', 'score', 'variants']) {
  core[name] = await import(pathToFileURL(`${checkout}/src/core/${name}.ts`).href)
}
const out = (obj) => process.stdout.write(JSON.stringify(obj) + '\n')
out({ ok: true, ready: true })
const rl = readline.createInterface({ input: process.stdin })
rl.on('line', (line) => {
  let req
  try {
    req = JSON.parse(line)
  } catch (e) {
    out({ ok: false, error: `not JSON: ${e}` })
    return
  }
  try {
    const fn = core[req.module]?.[req.fn]
    if (typeof fn !== 'function') throw new Error(`no function ${req.module}.${req.fn}`)
    const result = fn(...req.args)
    out({ ok: true, result: result === undefined ? null : result, args: req.args })
  } catch (e) {
    out({ ok: false, error: String((e && e.stack) || e).split('\n').slice(0, 3).join(' | ') })
  }
})
