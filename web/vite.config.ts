// The dashboard's build: one JS file and one CSS file under assets/ (no code splitting), so
// that `analyze --format html` can inline them into a single self-contained page, and `serve`
// answers them from the binary. CMake sets SF_WEB_OUT_DIR to a folder of its build tree.
import { defineConfig } from 'vite';

export default defineConfig({
  base: '/',
  esbuild: { jsx: 'automatic', jsxImportSource: 'preact', legalComments: 'none' },
  build: {
    outDir: process.env.SF_WEB_OUT_DIR ?? 'dist',
    emptyOutDir: true,
    target: 'es2020',
    cssCodeSplit: false,
    modulePreload: false,
    sourcemap: false,
    reportCompressedSize: false,
    chunkSizeWarningLimit: 2048,
    rollupOptions: { output: { inlineDynamicImports: true } },
  },
});
