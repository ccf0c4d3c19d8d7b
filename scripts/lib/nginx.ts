// nginx from Debian's package as the cluster's load balancer (scripts/lib/cluster.ts): found, or installed with
// apt-get when we are root (as scripts/ensure-browser.ts does for Chromium), and its configuration written into a
// temp folder, so nothing of the machine's own nginx (/etc/nginx, its service) is used or changed.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { aptInstall } from './postgres.ts';
import { findOnPath } from './system.ts';

/** The nginx binary, installed from Debian's `nginx` package when missing and we are root; else throws with a hint. */
export function ensureNginx(log: (message: string) => void): string {
  const found = findOnPath('nginx');
  if (found) return found;
  log('nginx not found; installing Debian package: nginx');
  aptInstall(['nginx'], 'Install nginx: sudo apt-get install nginx', log);
  const installed = findOnPath('nginx');
  if (!installed) throw new Error('apt-get finished but nginx is still not on PATH (nor in /usr/sbin)');
  return installed;
}

export function nginxVersion(binary: string): string {
  const result = spawnSync(binary, ['-v'], { encoding: 'utf8' });
  return (result.stderr || result.stdout).trim().replace(/^nginx version:\s*/, '');
}

export interface BalancerConfig {
  /** Its own folder: config, pid, logs, temp files. */
  prefix: string;
  port: number;
  upstreams: number[];
}

/**
 * The configuration: one worker (the shops need the CPUs), both shops in one upstream with keep-alive connections,
 * and a request that cannot reach one (refused, reset before an answer, no answer in time, a 502) tried once on the
 * other. nginx does that for a POST only when the connection failed before the request was sent, never after: a cart
 * line added twice is worse than an error the shopper sees. Open-source nginx checks upstreams passively: a shop that
 * refuses a connection is left alone for `fail_timeout`; /readyz is for balancers that poll (see README).
 */
export function balancerConfig({ prefix, port, upstreams }: BalancerConfig): string {
  const at = (name: string) => path.join(prefix, name);
  return `# Written by scripts/lib/nginx.ts for \`npm run cluster\`; removed when the cluster stops.
worker_processes 1;
daemon off;
pid ${at('nginx.pid')};
error_log ${at('error.log')} warn;

events {
  worker_connections 4096;
}

http {
  access_log off;
  client_body_temp_path ${at('client-body')};
  proxy_temp_path ${at('proxy')};
  fastcgi_temp_path ${at('fastcgi')};
  uwsgi_temp_path ${at('uwsgi')};
  scgi_temp_path ${at('scgi')};
  # The grocer's import goes through the shop: up to 32 MB (README, npm run import).
  client_max_body_size 40m;

  upstream kirana {
${upstreams.map((p) => `    server 127.0.0.1:${p} max_fails=1 fail_timeout=2s;`).join('\n')}
    keepalive 64;
    # Under the shops' own 5 s (Node's keepAliveTimeout), so nginx never sends on a connection the shop is closing.
    keepalive_timeout 4s;
  }

  server {
    listen 127.0.0.1:${port};

    # Who the shopper is: nginx listens on loopback only, and the client there is the load test playing many shoppers
    # (as a CDN in front would), so their X-Forwarded-For is believed from 127.0.0.1 alone. In production, name your
    # CDN's addresses here, or drop these two lines so the shopper is the peer nginx sees.
    set_real_ip_from 127.0.0.1;
    real_ip_header X-Forwarded-For;

    location / {
      proxy_pass http://kirana;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
      # The shops run with TRUST_PROXY=true and take the last entry: the address nginx settled on.
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
      proxy_next_upstream error timeout http_502;
      proxy_next_upstream_tries 2;
      proxy_connect_timeout 2s;
      proxy_read_timeout 30s;
    }
  }
}
`;
}

/** Writes the configuration into `prefix` (and the folders nginx wants there); returns nginx's arguments. */
export function prepareBalancer(config: BalancerConfig): string[] {
  fs.mkdirSync(config.prefix, { recursive: true });
  const file = path.join(config.prefix, 'nginx.conf');
  fs.writeFileSync(file, balancerConfig(config));
  // -e: the error log before the configuration is read (Debian's default is /var/log/nginx, which may not exist).
  return ['-p', config.prefix, '-c', file, '-e', path.join(config.prefix, 'error.log')];
}
