// Builds every src/islands/*.jsx (and src/site.js, the small script of every page, and
// src/part-image.js, the part forms' image preview, src/bike-picker.js and
// src/fitment-editor.js) into ../static/dist, writes manifest.json, which the `island_assets`
// template tag reads:
//   {"purchase-form": {"file": "purchase-form-AB12.js", "imports": ["chunk-CD34.js"], "css": []}}
// and builds the Tailwind + daisyUI stylesheet static/dist/app.css.
// All paths are relative to static/dist. `node build.mjs --watch` rebuilds on change.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";

const here = path.dirname(fileURLToPath(import.meta.url));
const islandsDir = path.join(here, "src", "islands");
const outdir = path.resolve(here, "..", "static", "dist");
const watch = process.argv.includes("--watch");

// An island is a .jsx file; unit tests beside it (*.test.jsx, *.spec.jsx) are never entries.
function isIslandEntry(name) {
  return name.endsWith(".jsx") && !/\.(test|spec)\.jsx$/.test(name);
}

const islands = fs.existsSync(islandsDir)
  ? fs.readdirSync(islandsDir).filter(isIslandEntry).sort()
  : [];
const entryPoints = {
  site: path.join(here, "src", "site.js"),
  // The part forms' image preview (no React): only the pages that have one load it.
  "part-image": path.join(here, "src", "part-image.js"),
  // The bike picker's selects and saving (no React): /allparts and /garage load it.
  "bike-picker": path.join(here, "src", "bike-picker.js"),
  // Edit part's "Fits these bikes": confirms a new bike before adding it (no React).
  "fitment-editor": path.join(here, "src", "fitment-editor.js"),
  ...Object.fromEntries(
    islands.map((name) => [path.basename(name, ".jsx"), path.join(islandsDir, name)]),
  ),
};

// Static imports of an output file, followed transitively, so the tag can
// modulepreload every chunk an island needs (dynamic imports load on demand).
function chunksOf(outputs, file, seen = new Set()) {
  for (const imp of outputs[file]?.imports ?? []) {
    if (imp.kind === "import-statement" && !imp.external && !seen.has(imp.path)) {
      seen.add(imp.path);
      chunksOf(outputs, imp.path, seen);
    }
  }
  return seen;
}

function writeManifest(manifest) {
  fs.mkdirSync(outdir, { recursive: true });
  fs.writeFileSync(path.join(outdir, "manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`);
}

const manifestPlugin = {
  name: "manifest",
  setup(build) {
    build.onEnd((result) => {
      if (result.errors.length || !result.metafile) return;
      const outputs = result.metafile.outputs;
      const rel = (p) => path.relative(outdir, path.resolve(p)).split(path.sep).join("/");
      const manifest = {};
      for (const [file, output] of Object.entries(outputs)) {
        if (!output.entryPoint || !file.endsWith(".js")) continue;
        const name = path.basename(output.entryPoint).replace(/\.jsx?$/, "");
        const css = output.cssBundle ? [rel(output.cssBundle)] : [];
        const imports = [...chunksOf(outputs, file)];
        for (const chunk of imports) {
          if (outputs[chunk]?.cssBundle) css.push(rel(outputs[chunk].cssBundle));
        }
        manifest[name] = { file: rel(file), imports: imports.map(rel).sort(), css };
      }
      writeManifest(manifest);
      console.log(`manifest.json: ${Object.keys(manifest).length} entries`);
    });
  },
};

// `import text from "x.css?raw"` (Vite's way, so the unit tests read it too): the file's
// minified text, for a stylesheet a script adopts when needed (lib/toast-container.jsx).
const rawText = {
  name: "raw-text",
  setup(build) {
    build.onResolve({ filter: /\?raw$/ }, async (args) => {
      const found = await build.resolve(args.path.slice(0, -"?raw".length), {
        kind: args.kind,
        resolveDir: args.resolveDir,
      });
      return found.errors.length ? found : { path: found.path, namespace: "raw-text" };
    });
    build.onLoad({ filter: /.*/, namespace: "raw-text" }, async (args) => {
      const source = await fs.promises.readFile(args.path, "utf8");
      const css = args.path.endsWith(".css")
        ? (await esbuild.transform(source, { loader: "css", minify: true })).code
        : source;
      return { contents: css, loader: "text" };
    });
  },
};

fs.rmSync(outdir, { recursive: true, force: true });

function buildCss() {
  const tailwind = path.join(here, "node_modules", ".bin", "tailwindcss");
  const args = ["-i", "src/styles/app.css", "-o", path.join(outdir, "app.css")];
  execFileSync(tailwind, watch ? [...args, "--watch"] : [...args, "--minify"], {
    cwd: here,
    stdio: "inherit",
  });
}

const options = {
  entryPoints,
  outdir,
  bundle: true,
  splitting: true,
  format: "esm",
  jsx: "automatic",
  minify: !watch,
  sourcemap: watch,
  target: ["es2020"],
  entryNames: "[name]-[hash]",
  chunkNames: "chunks/[name]-[hash]",
  assetNames: "assets/[name]-[hash]",
  metafile: true,
  logLevel: "info",
  define: { "process.env.NODE_ENV": JSON.stringify(watch ? "development" : "production") },
  plugins: [rawText, manifestPlugin],
};
if (watch) {
  const ctx = await esbuild.context(options);
  await ctx.watch();
} else {
  await esbuild.build(options);
}

if (!watch) buildCss();
