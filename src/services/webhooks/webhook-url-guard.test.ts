import { describe, expect, it } from 'vitest';
import { ApiError } from '../../shared/errors.js';
import { isPublicAddress } from './public-address.js';
import { WebhookUrlPolicy, type HostResolver } from './webhook-url-guard.js';

const resolverFor =
  (answers: Record<string, string[]>): HostResolver =>
  async (hostname) => {
    const addresses = answers[hostname];
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };

describe('isPublicAddress', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback /8'],
    ['10.1.2.3', 'RFC 1918'],
    ['172.16.0.1', 'RFC 1918'],
    ['172.31.255.255', 'RFC 1918 upper edge'],
    ['192.168.1.1', 'RFC 1918'],
    ['100.64.0.1', 'CGNAT'],
    ['100.127.255.254', 'CGNAT upper edge'],
    ['169.254.169.254', 'cloud metadata'],
    ['0.0.0.0', 'unspecified'],
    ['255.255.255.255', 'broadcast'],
    ['224.0.0.251', 'multicast'],
    ['198.18.0.1', 'benchmarking'],
    ['::1', 'IPv6 loopback'],
    ['::', 'IPv6 unspecified'],
    ['fe80::1', 'IPv6 link-local'],
    ['febf::1', 'IPv6 link-local upper edge'],
    ['fc00::1', 'unique-local'],
    ['fd00:ec2::254', 'AWS IPv6 metadata (unique-local)'],
    ['ff02::1', 'IPv6 multicast'],
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
    ['::ffff:7f00:1', 'IPv4-mapped loopback, hex'],
    ['0:0:0:0:0:ffff:a9fe:a9fe', 'IPv4-mapped metadata, long form'],
    ['::ffff:10.0.0.1', 'IPv4-mapped private'],
    ['::127.0.0.1', 'IPv4-compatible loopback'],
    ['64:ff9b::a00:1', 'NAT64 of 10.0.0.1'],
    ['2002:c0a8:0101::1', '6to4 of 192.168.1.1'],
    ['2001:db8::1', 'documentation'],
    ['not-an-ip', 'not an address'],
  ])('refuses %s (%s)', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each([
    ['8.8.8.8'],
    ['1.1.1.1'],
    ['172.32.0.1'],
    ['100.128.0.1'],
    ['169.255.0.1'],
    ['2606:4700:4700::1111'],
    ['::ffff:8.8.8.8'],
    ['64:ff9b::808:808'],
    ['[2a00:1450:4001::200e]'],
  ])('accepts the public address %s', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });
});

describe('WebhookUrlPolicy shape check (session creation)', () => {
  const policy = new WebhookUrlPolicy();

  it('returns the normalised URL of a public https endpoint', () => {
    expect(policy.assertShape('https://Hooks.Example.com/nav?x=1')).toBe('https://hooks.example.com/nav?x=1');
    expect(policy.assertShape('https://hooks.example.com:8443/nav')).toBe('https://hooks.example.com:8443/nav');
  });

  it.each([
    ['http://hooks.example.com/nav', 'https'],
    ['ftp://hooks.example.com/nav', 'https'],
    ['/relative/path', 'absolute'],
    ['https://user:pass@hooks.example.com/', 'credentials'],
    ['https://token@hooks.example.com/', 'credentials'],
    ['https://hooks.example.com:22/', 'port'],
    ['https://127.0.0.1/', 'non-public'],
    ['https://2130706433/', 'non-public'],
    ['https://0x7f.1/', 'non-public'],
    ['https://[::1]/', 'non-public'],
    ['https://[::ffff:169.254.169.254]/', 'non-public'],
    ['https://169.254.169.254/latest/meta-data', 'non-public'],
    ['https://localhost/', 'public host'],
    ['https://LOCALHOST./', 'public host'],
    ['https://api.localhost/', 'public host'],
    ['https://metadata.google.internal/computeMetadata/v1/', 'public host'],
    ['https://metadata/', 'public host'],
    ['https://printer.local/', 'public host'],
    [`https://hooks.example.com/${'a'.repeat(2048)}`, '2048'],
  ])('refuses %s', (url, mentions) => {
    expect(policy.shapeProblem(url)).toContain(mentions);
    expect(() => policy.assertShape(url)).toThrow(ApiError);
  });

  it('throws a 400 VALIDATION_ERROR naming the field', () => {
    let error: unknown;
    try {
      policy.assertShape('http://hooks.example.com/nav');
    } catch (failure) {
      error = failure;
    }
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).statusCode).toBe(400);
    expect((error as ApiError).code).toBe('VALIDATION_ERROR');
    expect((error as ApiError).messages).toEqual(['webhookUrl: must be an https URL']);
  });

  it('lets allow-listed hosts use http and private addresses, by host or by host:port', () => {
    const byHost = new WebhookUrlPolicy({ allowedHosts: ['127.0.0.1'] });
    expect(byHost.shapeProblem('http://127.0.0.1:4567/hook')).toBeUndefined();
    const byPort = new WebhookUrlPolicy({ allowedHosts: ['127.0.0.1:4567', '[::1]'] });
    expect(byPort.shapeProblem('http://127.0.0.1:4567/hook')).toBeUndefined();
    expect(byPort.shapeProblem('http://127.0.0.1:4568/hook')).toContain('https');
    expect(byPort.shapeProblem('http://[::1]:9/hook')).toBeUndefined();
    expect(byHost.shapeProblem('http://user:pw@127.0.0.1:4567/hook')).toContain('credentials');
  });
});

describe('WebhookUrlPolicy resolution (before each delivery)', () => {
  it('pins the validated address of a public name', async () => {
    const policy = new WebhookUrlPolicy({ resolveHost: resolverFor({ 'hooks.example.com': ['93.184.216.34', '2606:2800:220:1::1'] }) });
    const resolution = await policy.resolve('https://hooks.example.com/nav');
    expect(resolution).toMatchObject({
      ok: true,
      target: {
        hostname: 'hooks.example.com',
        port: 443,
        addresses: [
          { address: '93.184.216.34', family: 4 },
          { address: '2606:2800:220:1::1', family: 6 },
        ],
      },
    });
  });

  it('refuses a name when any of its addresses is not public (rebinding with mixed answers)', async () => {
    const policy = new WebhookUrlPolicy({ resolveHost: resolverFor({ 'evil.example.com': ['93.184.216.34', '10.0.0.5'] }) });
    expect(await policy.resolve('https://evil.example.com/')).toEqual({ ok: false, reason: 'evil.example.com resolves to a non-public address', retryable: false });
  });

  it('refuses names resolving to mapped or metadata addresses', async () => {
    const policy = new WebhookUrlPolicy({
      resolveHost: resolverFor({ 'a.example.com': ['::ffff:127.0.0.1'], 'b.example.com': ['169.254.169.254'], 'c.example.com': ['fd00::1'] }),
    });
    for (const host of ['a', 'b', 'c']) {
      expect(await policy.resolve(`https://${host}.example.com/`)).toMatchObject({ ok: false, retryable: false });
    }
  });

  it('refuses a real name that resolves to loopback (localhost) unless it is allow-listed', async () => {
    // "localhost" is refused by name; with a dot it reaches the resolver, which the stub answers with loopback.
    const stub = resolverFor({ 'localhost.example.com': ['127.0.0.1'] });
    expect(await new WebhookUrlPolicy().resolve('https://localhost/')).toMatchObject({ ok: false, retryable: false });
    expect(await new WebhookUrlPolicy({ resolveHost: stub }).resolve('https://localhost.example.com/')).toMatchObject({ ok: false, retryable: false });
    const allowed = await new WebhookUrlPolicy({ allowedHosts: ['localhost'] }).resolve('http://localhost:4567/hook');
    if (!allowed.ok) throw new Error(allowed.reason);
    expect(allowed.target).toMatchObject({ hostname: 'localhost', port: 4567 });
    expect(['127.0.0.1', '::1']).toContain(allowed.target.addresses[0]!.address);
  });

  it('reports a resolver failure as retryable', async () => {
    const policy = new WebhookUrlPolicy({ resolveHost: resolverFor({}) });
    expect(await policy.resolve('https://gone.example.com/')).toEqual({ ok: false, reason: 'DNS lookup failed (ENOTFOUND)', retryable: true });
  });

  it('refuses non-https again at delivery time', async () => {
    expect(await new WebhookUrlPolicy().resolve('http://hooks.example.com/')).toMatchObject({ ok: false, retryable: false });
  });
});
