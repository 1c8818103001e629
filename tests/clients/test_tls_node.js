// test_tls_node.js: node-postgres over TLS against eddy (tests/layers/tls.sh):
// verify-full with the test CA (node's checkServerIdentity on "localhost"),
// and a host name the certificate does not name refused.
// usage: node test_tls_node.js PORT CA_FILE
const fs = require('fs');
const { Client } = require('pg');

const port = Number(process.argv[2]);
const ca = fs.readFileSync(process.argv[3]);

async function showSsl(servername) {
  const c = new Client({
    host: '127.0.0.1', port, user: 'postgres', database: 'eddy',
    ssl: { ca, rejectUnauthorized: true, servername },
    connectionTimeoutMillis: 10000,
  });
  await c.connect();
  try {
    const r = await c.query('SHOW ssl');
    return r.rows[0].ssl;
  } finally {
    await c.end();
  }
}

(async () => {
  try {
    const v = await showSsl('localhost');
    console.log(v === 'on' ? 'ok node_pg_verify_full' : `not ok node_pg_verify_full: SHOW ssl = ${v}`);
  } catch (e) {
    console.log(`not ok node_pg_verify_full: ${e.message}`);
  }
  try {
    await showSsl('wrong.example');
    console.log('not ok node_pg_wrong_host: connected');
  } catch (e) {
    const ok = /does not match|altnames/i.test(e.message);
    console.log(ok ? 'ok node_pg_wrong_host' : `not ok node_pg_wrong_host: ${e.message}`);
  }
})();
