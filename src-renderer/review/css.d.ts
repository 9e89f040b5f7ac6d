// Side-effect CSS imports of the review pages (bundled by Vite).
declare module '*.css';
