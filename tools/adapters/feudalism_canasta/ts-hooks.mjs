// Node module hooks: load the checkout's TypeScript sources as ES modules,
// transpiled in memory by the esbuild the checkout itself installs (a
// dependency of its Vite toolchain). Nothing is written to disk.
import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'

let esbuild

export async function initialize({ checkout }) {
  const require = createRequire(`${checkout}/package.json`)
  esbuild = require('esbuild')
}

export async function resolve(specifier, context, next) {
  const relative = specifier.startsWith('./') || specifier.startsWith('../')
  if (relative && context.parentURL && context.parentURL.endsWith('.ts') && !/\.[cm]?[jt]sx?$/.test(specifier)) {
    return next(`${specifier}.ts`, context)
  }
  return next(specifier, context)
}

export async function load(url, context, next) {
  if (url.endsWith('.ts')) {
    const source = await readFile(fileURLToPath(url), 'utf8')
    const { code } = esbuild.transformSync(source, { loader: 'ts', format: 'esm', target: 'es2022' })
    return { format: 'module', source: code, shortCircuit: true }
  }
  return next(url, context)
}
