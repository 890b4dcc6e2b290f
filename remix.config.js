import { flatRoutes } from 'remix-flat-routes';

// The tests build a console of their own into ONRECO_BUILD_DIR (tests/support/console-build.ts),
// so that they never serve, nor overwrite, the build/ of `npm start`.
const outputDir = process.env.ONRECO_BUILD_DIR;

/** @type {import('@remix-run/dev').AppConfig} */
export default {
  ...(outputDir ? { serverBuildPath: `${outputDir}/build/index.js`, assetsBuildDirectory: `${outputDir}/public/build` } : {}),
  // Routes are grouped by area in `+` folders (remix-flat-routes, as the Epic Stack does):
  // _app+/ the signed-in console, _auth+/ the sign-in pages, on-reco+/ the REST API,
  // resources+/ the console's own data endpoints. docs/architecture.md has the map.
  ignoredRouteFiles: ['**/*'],
  routes: async (defineRoutes) => flatRoutes('routes', defineRoutes, { ignoredRouteFiles: ['**/.*', '**/*.test.{ts,tsx}'] }),
  serverModuleFormat: 'esm',
  tailwind: true,
  postcss: true,
  // Node built-ins are only used from *.server.ts modules; keep the browser bundle free of them.
  serverDependenciesToBundle: [],
  future: {
    v3_fetcherPersist: true,
    v3_relativeSplatPath: true,
    v3_throwAbortReason: true,
    v3_lazyRouteDiscovery: true,
    v3_singleFetch: true,
  },
};
