import http from 'node:http';
import https from 'node:https';

// A request over HTTP or HTTPS on a connection of its own (closed after it): a supervisor hands
// each new connection to the next web process, and a proxy test chooses the client's address.

export interface OwnConnectionAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface OwnConnectionOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  /** The certificate to trust (a test's self-signed one). */
  ca?: string;
  /** The client's own address, such as 127.0.0.2. */
  localAddress?: string;
}

export function requestOnOwnConnection(url: string, options: OwnConnectionOptions = {}): Promise<OwnConnectionAnswer> {
  const client = url.startsWith('https:') ? https : http;
  return new Promise((resolve, reject) => {
    const req = client.request(url, { method: options.method ?? 'GET', headers: options.headers, ca: options.ca, localAddress: options.localAddress, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}
