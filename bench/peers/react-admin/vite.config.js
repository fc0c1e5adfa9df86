import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The bench serves dist/ itself (bench/lib/static-server.ts); the shared data lives one folder up.
export default defineConfig({ plugins: [react()], build: { outDir: 'dist', emptyOutDir: true } });
