import http from 'node:http';
import https from 'node:https';

export interface HttpAnswer {
  readonly status: number;
  readonly statusText: string;
  readonly text: string;
}

/**
 * One request over node:http, on a connection of its own. Not fetch: loading undici costs a short command a tenth
 * of a second, and its pooled keep-alive connection kept the process alive over half a second after it was done.
 */
export function httpRequest(url: URL, method: string, headers: Record<string, string>, body: string | undefined): Promise<HttpAnswer> {
  const transport = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = transport.request(
      url,
      { method, headers: body === undefined ? headers : { ...headers, 'Content-Length': String(Buffer.byteLength(body)) }, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, statusText: res.statusMessage ?? '', text: Buffer.concat(chunks).toString('utf8') }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
