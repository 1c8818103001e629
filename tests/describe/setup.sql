-- setup.sql: the tables and views tests/describe/describe.py creates on both servers, one
-- statement per line, in a fresh schema that is first on the search_path.
CREATE TABLE customers (id int8 NOT NULL, name varchar(20), email text, joined date, vip bool, balance numeric(10,2), PRIMARY KEY (id))
CREATE TABLE orders (id int4 NOT NULL, customer_id int8, amount numeric(10,2), status varchar(20), placed_at timestamptz, shipped bool, note text, due date, PRIMARY KEY (id))
CREATE TABLE items (order_id int4, sku text, qty int2, price numeric(10,2), weight float8, tags text[], code char(4))
CREATE TABLE events (id int8, kind varchar(20), at timestamptz, local_at timestamp, took interval, score float4, payload jsonb, n numeric)
CREATE TABLE l (id int4, x text, k int8)
CREATE TABLE r (id int4, y text, k int4)
CREATE INDEX orders_by_customer ON orders (customer_id)
CREATE VIEW big_orders AS SELECT id, amount, status FROM orders WHERE amount > 100
CREATE VIEW customer_totals AS SELECT c.id, c.name, sum(o.amount) AS total, count(*) FROM customers c JOIN orders o ON o.customer_id = c.id GROUP BY c.id, c.name
CREATE VIEW renamed (x, y) AS SELECT id, note, due FROM orders
CREATE VIEW exprs AS SELECT id * 2, amount::float8 AS f, upper(status), placed_at::date, 'k' AS k FROM orders
CREATE MATERIALIZED VIEW status_counts AS SELECT status, count(*) AS n, max(amount) FROM orders GROUP BY status
