import { createContext, useContext } from 'react';

// The request's CSP nonce (app/http/server/security-headers.server.ts), for Remix's inline scripts.
const NonceContext = createContext<string | undefined>(undefined);

export const NonceProvider = NonceContext.Provider;

export function useNonce(): string | undefined {
  return useContext(NonceContext);
}
