import type { Config } from 'tailwindcss';

export default {
  content: ['./app/**/*.{ts,tsx}'],
  theme: {
    extend: {
      colors: {
        brand: { 50: '#eef7ff', 100: '#d9ecff', 500: '#1e7bd6', 600: '#1766b3', 700: '#12508d', 900: '#0b2e52' },
      },
      fontFamily: {
        sans: ['"Noto Sans JP"', '"Noto Sans CJK JP"', '"Hiragino Sans"', 'Meiryo', 'system-ui', 'sans-serif'],
      },
    },
  },
  plugins: [],
} satisfies Config;
