import type { Config } from 'tailwindcss';

export default {
  content: ['./app/**/*.{ts,tsx}'],
  theme: {
    extend: {
      colors: {
        brand: { 50: '#eef7ff', 100: '#d9ecff', 500: '#1e7bd6', 600: '#1766b3', 700: '#12508d', 900: '#0b2e52' },
        // The console's secondary text steps, darkened here once so that every text-slate-400/500
        // meets WCAG AA (4.5:1) on white and the light greys it sits on (slate-50/100; decision
        // 175): Tailwind's own slate-400 is 2.56:1 on white and its slate-500 4.34:1 on slate-100.
        // 400 stays the lighter of the two (5.4:1 on white, 4.9:1 on slate-100).
        slate: { 400: '#5f6b7d', 500: '#56657a' },
      },
      fontFamily: {
        sans: ['"Noto Sans JP"', '"Noto Sans CJK JP"', '"Hiragino Sans"', 'Meiryo', 'system-ui', 'sans-serif'],
      },
    },
  },
  plugins: [],
} satisfies Config;
