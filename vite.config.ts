import path from 'node:path'
import { reactRouter } from '@react-router/dev/vite'
import tailwindcss from '@tailwindcss/vite'
import { defineConfig } from 'vite'

export default defineConfig(({ isSsrBuild }) => ({
  // The server bundle's entry is our Express app, which imports the React Router build.
  build: {
    // Logos and avatars stay hashed files (cached for a year), not data URIs repeated in HTML and JS.
    assetsInlineLimit: 0,
    ...(isSsrBuild ? { rollupOptions: { input: './server/app.ts' } } : {}),
  },
  resolve: { alias: { '~': path.resolve(import.meta.dirname, 'app') } },
  plugins: [tailwindcss(), reactRouter()],
}))
