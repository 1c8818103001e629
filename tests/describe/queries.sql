-- queries.sql: queries over the tables and views of setup.sql, prepared and described on eddy
-- and on PostgreSQL 15 by tests/describe/describe.py. One statement per line; "--" lines are
-- comments. Compared: each result column's name, type OID and typmod, or the SQLSTATE (and
-- whether Parse or Describe raised it).
-- plain reads, stars, qualified names
SELECT * FROM customers
SELECT * FROM orders
SELECT * FROM items
SELECT * FROM events
SELECT id, name FROM customers
SELECT customers.* FROM customers
SELECT c.* FROM customers AS c
SELECT o.id, o.amount, o.status FROM orders o
SELECT orders.id FROM orders
SELECT * FROM customers c (a, b)
SELECT a, b, email FROM customers AS c (a, b)
SELECT "id", "name" FROM "customers"
SELECT id AS "Id", name AS "Name With Space" FROM customers
SELECT id AS select FROM customers
SELECT 1 FROM customers
SELECT FROM customers
TABLE customers
-- views and materialized views
SELECT * FROM big_orders
SELECT * FROM customer_totals
SELECT * FROM renamed
SELECT * FROM exprs
SELECT * FROM status_counts
SELECT x, y, due FROM renamed
SELECT b.id, b.amount * 2 FROM big_orders b
SELECT total / count FROM customer_totals
SELECT n + 1, max FROM status_counts
-- expressions, operators, implicit casts
SELECT id + 1, id * 2.5, id / 2, id % 3, -id FROM orders
SELECT amount + 1, amount * 2, amount / 3, amount - amount, -amount FROM orders
SELECT amount + 1.5::float8, amount * id, amount + customer_id FROM orders
SELECT customer_id + id, customer_id * 2, customer_id::int4 FROM orders
SELECT qty + qty, qty * 2, qty + 1::int8, qty / 2.0 FROM items
SELECT weight * 2, weight + price, score + 1, score * score, score + weight FROM items, events
SELECT status || '!', name || 1, note || note, 1 || note FROM orders, customers
SELECT status = 'x', status < 'y', note LIKE 'a%', note ILIKE 'a%', note NOT LIKE '_' FROM orders
SELECT note ~ 'a.*', note ~* 'A', note !~ 'b', note SIMILAR TO '%x%' FROM orders
SELECT note OPERATOR(pg_catalog.~) 'x' FROM orders
SELECT id BETWEEN 1 AND 10, id NOT BETWEEN 1 AND 2, id IN (1, 2, 3), id NOT IN (4) FROM orders
SELECT shipped AND true, shipped OR false, NOT shipped, shipped IS TRUE, shipped IS NOT FALSE, shipped IS UNKNOWN FROM orders
SELECT note IS NULL, note IS NOT NULL, note IS DISTINCT FROM 'x', id IS NOT DISTINCT FROM 2 FROM orders
SELECT placed_at + interval '1 day', placed_at - placed_at, due + 1, due - due, due - 1 FROM orders
SELECT due + interval '1 hour', local_at - interval '1 minute', took * 2, took + took FROM orders, events
SELECT placed_at > now(), due < current_date, placed_at = due FROM orders
SELECT at AT TIME ZONE 'UTC', local_at AT TIME ZONE 'UTC' FROM events
SELECT extract(year FROM placed_at), date_part('month', due), date_trunc('day', placed_at) FROM orders
SELECT extract(epoch FROM took), date_trunc('hour', local_at) FROM events
SELECT payload -> 'a', payload ->> 'a', payload #> '{a,b}', payload #>> '{a}' FROM events
SELECT tags[1], tags[1:2], array_length(tags, 1), cardinality(tags), tags || 'x' FROM items
SELECT 'a' = ANY (tags), 'b' <> ALL (tags), tags @> ARRAY['x'], tags && ARRAY['y'] FROM items
SELECT ARRAY[id, 2], ARRAY[amount], ARRAY[note, status], ARRAY[[1, 2], [3, 4]] FROM orders
SELECT ARRAY[]::int4[], '{1,2}'::int8[], ARRAY[1, 2.5] FROM orders
SELECT code, code || 'x', code = 'ab', length(code) FROM items
SELECT ROW(id, note), (id, amount) FROM orders
SELECT (id, note) = (1, 'a'), ROW(id) IS NULL FROM orders
SELECT n + 1, n * amount, n / 2 FROM events, orders
-- casts
SELECT id::text, amount::int4, amount::float8, status::text, note::varchar(5) FROM orders
SELECT amount::numeric(12,4), id::numeric(5), CAST(id AS int8), CAST(note AS char(2)) FROM orders
SELECT placed_at::date, placed_at::timestamp, due::timestamptz, due::text, '2024-01-01'::date FROM orders
SELECT shipped::int4, id::bool, '1'::bool, 't'::text::bool FROM orders
SELECT payload::text, note::jsonb, '{"a":1}'::json FROM events, orders
SELECT id::int2, id::float4, customer_id::numeric FROM orders
SELECT amount::varchar(3), name::char(10), email::varchar(100) FROM orders, customers
SELECT '12:30'::time, '1 day'::interval, '2024-01-01 00:00'::timestamp(3), now()::timestamptz(0) FROM orders
SELECT int4 '1', date '2024-01-02', timestamptz '2024-01-01 00:00+00', numeric(10,2) '1.5' FROM orders
SELECT tags::text, '{a,b}'::text[], ARRAY[1]::text[] FROM items
SELECT amount::numeric, CAST(amount AS numeric), amount::decimal, amount::dec FROM orders
SELECT status::varchar, CAST(name AS character varying) FROM orders, customers
SELECT note::"char", 'a'::"char" FROM orders
-- functions
SELECT upper(name), lower(email), length(name), substr(email, 1, 3), trim(name), btrim(email) FROM customers
SELECT coalesce(name, email), coalesce(balance, 0), coalesce(id, 0), nullif(name, 'x'), greatest(id, 5), least(balance, 1.5) FROM customers
SELECT round(amount), round(amount, 1), floor(amount), ceil(amount), abs(amount), trunc(amount, 1) FROM orders
SELECT round(weight), sqrt(weight), power(weight, 2), ln(weight), exp(weight) FROM items
SELECT mod(id, 3), div(amount, 2), sign(amount), abs(customer_id) FROM orders
SELECT concat(name, id), concat_ws(',', name, email), format('%s-%s', id, name), repeat(name, 2) FROM customers
SELECT position('a' IN name), substring(name FROM 2 FOR 3), replace(name, 'a', 'b') FROM customers
SELECT left(name, 2), right(email, 3), lpad(name, 10), rpad(name, 10, '*'), reverse(name), initcap(name) FROM customers
SELECT split_part(email, '@', 2), strpos(email, '@'), starts_with(email, 'a'), md5(email), char_length(name) FROM customers
SELECT regexp_replace(note, 'a', 'b'), string_to_array(note, ',') FROM orders
SELECT to_char(placed_at, 'YYYY'), to_char(amount, '999.99'), to_date('2024', 'YYYY'), to_timestamp(1) FROM orders
SELECT age(placed_at), make_date(2024, 1, 1), date_part('dow', due), justify_days(took) FROM orders, events
SELECT now(), current_timestamp, current_date, localtimestamp, clock_timestamp() FROM orders
SELECT pg_typeof(id), pg_typeof(amount) FROM orders
SELECT array_append(tags, 'x'), array_prepend('y', tags), array_cat(tags, tags), array_position(tags, 'x'), array_to_string(tags, ',') FROM items
SELECT jsonb_typeof(payload) FROM events
SELECT gen_random_uuid(), random(), pi() FROM orders
SELECT current_user, session_user, current_schema, current_database(), version() FROM orders
SELECT upper(id) FROM orders
SELECT nosuchfunc(id) FROM orders
SELECT round(note) FROM orders
SELECT substr(id, 1) FROM orders
SELECT length(1) FROM orders
SELECT nullif(amount, 0), nullif(status, name), nullif(code, code) FROM orders, items, customers
-- CASE
SELECT CASE WHEN amount > 10 THEN 'big' ELSE 'small' END FROM orders
SELECT CASE status WHEN 'new' THEN 1 WHEN 'old' THEN 2 END FROM orders
SELECT CASE WHEN shipped THEN amount ELSE 0 END, CASE WHEN shipped THEN id ELSE customer_id END FROM orders
SELECT CASE WHEN shipped THEN 1 ELSE 2.5 END FROM orders
SELECT CASE WHEN shipped THEN placed_at ELSE due END FROM orders
SELECT CASE WHEN shipped THEN NULL ELSE status END, CASE WHEN shipped THEN NULL END FROM orders
SELECT CASE WHEN shipped THEN 1 ELSE 'x' END FROM orders
SELECT CASE WHEN shipped THEN id ELSE note END FROM orders
SELECT CASE WHEN id THEN 1 END FROM orders
SELECT CASE WHEN shipped THEN note ELSE status END AS s FROM orders
SELECT CASE WHEN shipped THEN status ELSE note END, CASE WHEN shipped THEN code ELSE note END FROM orders, items
-- WHERE
SELECT id FROM orders WHERE amount > 10
SELECT id FROM orders WHERE shipped
SELECT id FROM orders WHERE status = 'new' AND (amount > 5 OR note IS NULL)
SELECT id FROM orders WHERE placed_at > '2024-01-01'
SELECT id FROM orders WHERE due BETWEEN '2024-01-01' AND '2024-02-01'
SELECT id FROM orders WHERE NOT shipped AND note LIKE '%x%'
SELECT id FROM orders WHERE id
SELECT id FROM orders WHERE note
SELECT id FROM orders WHERE 1
SELECT id FROM orders WHERE nosuch = 1
SELECT id FROM orders WHERE count(*) > 1
SELECT id FROM orders WHERE amount > 'abc'
SELECT id FROM orders WHERE placed_at > 'not a date'
-- joins: inner, outer, cross, ON / USING / NATURAL
SELECT * FROM orders o JOIN customers c ON o.customer_id = c.id
SELECT o.id, c.name FROM orders o INNER JOIN customers c ON o.customer_id = c.id
SELECT * FROM orders o LEFT JOIN customers c ON o.customer_id = c.id
SELECT * FROM orders o LEFT OUTER JOIN customers c ON o.customer_id = c.id AND c.vip
SELECT * FROM orders o RIGHT JOIN customers c ON o.customer_id = c.id
SELECT * FROM orders o FULL JOIN customers c ON o.customer_id = c.id
SELECT * FROM orders o FULL OUTER JOIN customers c ON true
SELECT * FROM orders CROSS JOIN customers
SELECT * FROM orders, customers
SELECT * FROM l JOIN r USING (id)
SELECT * FROM l JOIN r USING (id, k)
SELECT * FROM l LEFT JOIN r USING (id)
SELECT * FROM l RIGHT JOIN r USING (k)
SELECT * FROM l FULL JOIN r USING (id, k)
SELECT id, k, x, y FROM l FULL JOIN r USING (id, k)
SELECT * FROM l NATURAL JOIN r
SELECT * FROM l NATURAL LEFT JOIN r
SELECT * FROM l NATURAL FULL JOIN r
SELECT * FROM l NATURAL JOIN customers
SELECT l.*, r.y FROM l JOIN r USING (id)
SELECT l.id, r.id, id FROM l JOIN r USING (id)
SELECT * FROM (l JOIN r USING (id)) AS j
SELECT * FROM (l JOIN r ON l.id = r.id) AS j (a, b, c, d)
SELECT * FROM l JOIN r ON l.id = r.id JOIN orders o ON o.id = l.id
SELECT * FROM l LEFT JOIN (r JOIN orders ON r.id = orders.id) ON l.id = r.id
SELECT * FROM orders o JOIN items i ON i.order_id = o.id JOIN customers c ON c.id = o.customer_id
SELECT * FROM customers c1 JOIN customers c2 ON c1.id = c2.id
SELECT * FROM l a, l b WHERE a.id = b.id
SELECT * FROM big_orders b JOIN orders o USING (id)
SELECT * FROM customer_totals t JOIN customers c USING (id, name)
SELECT id FROM l JOIN r ON l.id = r.id
SELECT k FROM l, r
SELECT * FROM l JOIN r USING (nosuch)
SELECT * FROM l JOIN r USING (x)
SELECT * FROM l JOIN r ON l.id = r.nosuch
SELECT * FROM l JOIN r ON l.x
SELECT * FROM l JOIN r ON l.x = r.k
SELECT * FROM l JOIN r
SELECT * FROM l JOIN r USING (id, id)
SELECT * FROM nosuch
SELECT * FROM nosuchschema.orders
SELECT o.nosuch FROM orders o
SELECT orders.id FROM orders o
SELECT * FROM orders, orders
SELECT * FROM orders o JOIN customers o ON true
SELECT * FROM (SELECT id FROM l) s, (SELECT id FROM r) s
-- GROUP BY, HAVING, aggregates
SELECT status, count(*) FROM orders GROUP BY status
SELECT status, count(*), sum(amount), avg(amount), min(amount), max(amount) FROM orders GROUP BY status
SELECT count(id), count(note), count(DISTINCT status), sum(DISTINCT amount) FROM orders
SELECT sum(id), sum(customer_id), sum(qty), sum(weight), sum(score), sum(n) FROM orders, items, events
SELECT avg(id), avg(customer_id), avg(qty), avg(weight), avg(score), avg(amount) FROM orders, items, events
SELECT min(note), max(placed_at), min(due), max(shipped::int4), min(took), max(code) FROM orders, items, events
SELECT bool_and(shipped), bool_or(shipped), every(shipped) FROM orders
SELECT string_agg(note, ','), array_agg(id), array_agg(DISTINCT status), string_agg(DISTINCT note, ';') FROM orders
SELECT count(*) FILTER (WHERE shipped), sum(amount) FILTER (WHERE status = 'new') FROM orders
SELECT count(DISTINCT note) FILTER (WHERE id > 1), avg(DISTINCT amount) FILTER (WHERE shipped) FROM orders
SELECT array_agg(id ORDER BY placed_at), string_agg(note, ',' ORDER BY id DESC) FROM orders
SELECT jsonb_agg(id), json_agg(note), jsonb_object_agg(kind, id) FROM orders, events
SELECT status, sum(amount) FROM orders GROUP BY 1
SELECT status, shipped, count(*) FROM orders GROUP BY 1, 2
SELECT status AS s, count(*) FROM orders GROUP BY s
SELECT upper(status), count(*) FROM orders GROUP BY upper(status)
SELECT date_trunc('day', placed_at), sum(amount) FROM orders GROUP BY 1
SELECT extract(year FROM due) AS y, count(*) FROM orders GROUP BY extract(year FROM due)
SELECT id % 10, count(*) FROM orders GROUP BY id % 10
SELECT status, count(*) FROM orders GROUP BY status HAVING count(*) > 1
SELECT status FROM orders GROUP BY status HAVING sum(amount) > 100 AND max(id) < 5
SELECT count(*) FROM orders HAVING count(*) > 0
SELECT c.name, count(o.id), sum(o.amount) FROM customers c LEFT JOIN orders o ON o.customer_id = c.id GROUP BY c.name
SELECT status, note FROM orders GROUP BY status
SELECT status, count(*) FROM orders GROUP BY 3
SELECT status, count(*) FROM orders GROUP BY 0
SELECT status FROM orders GROUP BY count(*)
SELECT count(count(*)) FROM orders
SELECT sum(note) FROM orders
SELECT avg(status) FROM orders
SELECT id FROM orders HAVING count(*) > 1
SELECT status FROM orders GROUP BY status HAVING note = 'x'
SELECT count(*) FILTER (WHERE count(*) > 1) FROM orders
SELECT count(*) FILTER (WHERE id) FROM orders
SELECT upper(note) FROM orders GROUP BY upper(status)
SELECT sum(*) FROM orders
-- DISTINCT, DISTINCT ON
SELECT DISTINCT status FROM orders
SELECT DISTINCT status, shipped FROM orders
SELECT DISTINCT * FROM l
SELECT DISTINCT ON (status) status, id, amount FROM orders ORDER BY status, id
SELECT DISTINCT ON (customer_id, status) * FROM orders
SELECT DISTINCT ON (1) status, id FROM orders
SELECT ALL status FROM orders
SELECT DISTINCT ON (status) id FROM orders ORDER BY id
SELECT DISTINCT status FROM orders ORDER BY id
-- ORDER BY, NULLS, LIMIT, OFFSET, FETCH
SELECT * FROM orders ORDER BY id
SELECT id, amount FROM orders ORDER BY amount DESC, id ASC
SELECT id FROM orders ORDER BY note NULLS FIRST
SELECT id FROM orders ORDER BY note DESC NULLS LAST, 1
SELECT id AS i FROM orders ORDER BY i
SELECT id, amount FROM orders ORDER BY 2 DESC
SELECT id FROM orders ORDER BY amount * 2
SELECT id FROM orders LIMIT 5
SELECT id FROM orders LIMIT 5 OFFSET 10
SELECT id FROM orders OFFSET 3
SELECT id FROM orders ORDER BY id FETCH FIRST 3 ROWS ONLY
SELECT id FROM orders ORDER BY id OFFSET 2 ROWS FETCH NEXT 1 ROW ONLY
SELECT id FROM orders FETCH FIRST ROW ONLY
SELECT id FROM orders LIMIT ALL
SELECT id FROM orders LIMIT NULL
SELECT id FROM orders ORDER BY 2
SELECT id FROM orders ORDER BY nosuch
SELECT id FROM orders LIMIT 'x'
SELECT id FROM orders LIMIT 1.5
SELECT id FROM orders OFFSET -1
SELECT id FROM orders LIMIT id
-- set operations
SELECT id FROM l UNION SELECT id FROM r
SELECT id, x FROM l UNION ALL SELECT id, y FROM r
SELECT id FROM l INTERSECT SELECT id FROM r
SELECT id FROM l INTERSECT ALL SELECT id FROM r
SELECT id FROM l EXCEPT SELECT id FROM r
SELECT id FROM l EXCEPT ALL SELECT id FROM r
SELECT k FROM l UNION SELECT k FROM r
SELECT k FROM r UNION SELECT k FROM l
SELECT id FROM orders UNION SELECT customer_id FROM orders
SELECT amount FROM orders UNION SELECT id FROM orders
SELECT weight FROM items UNION SELECT price FROM items
SELECT status FROM orders UNION SELECT note FROM orders
SELECT status FROM orders UNION SELECT name FROM customers
SELECT code FROM items UNION SELECT code FROM items
SELECT placed_at FROM orders UNION SELECT due FROM orders
SELECT NULL UNION SELECT id FROM orders
SELECT 'a' UNION SELECT status FROM orders
SELECT id AS first FROM l UNION SELECT id AS second FROM r
SELECT id FROM l UNION SELECT id FROM r ORDER BY id DESC LIMIT 2
SELECT id FROM l UNION SELECT id FROM r ORDER BY 1
(SELECT id FROM l ORDER BY id LIMIT 1) UNION ALL (SELECT id FROM r)
SELECT id FROM l UNION SELECT id FROM r INTERSECT SELECT id FROM orders
SELECT id FROM l UNION (SELECT id FROM r EXCEPT SELECT id FROM orders)
SELECT id, x FROM l UNION SELECT id FROM r
SELECT x FROM l UNION SELECT id FROM r
SELECT id FROM l UNION SELECT id FROM r ORDER BY x
SELECT id FROM l UNION SELECT id FROM r ORDER BY l.id
SELECT tags FROM items UNION SELECT ARRAY[status] FROM orders
-- subqueries: scalar, IN, EXISTS, ANY, ALL
SELECT (SELECT max(id) FROM orders)
SELECT id, (SELECT count(*) FROM items) AS n FROM orders
SELECT (SELECT name FROM customers LIMIT 1), (SELECT amount FROM orders LIMIT 1) FROM l
SELECT id FROM orders WHERE customer_id IN (SELECT id FROM customers)
SELECT id FROM orders WHERE customer_id NOT IN (SELECT id FROM customers WHERE vip)
SELECT id FROM orders WHERE EXISTS (SELECT 1 FROM customers)
SELECT id FROM orders WHERE NOT EXISTS (SELECT * FROM items)
SELECT id FROM orders WHERE amount > ANY (SELECT price FROM items)
SELECT id FROM orders WHERE amount >= ALL (SELECT price FROM items)
SELECT id FROM orders WHERE id = SOME (SELECT order_id FROM items)
SELECT id IN (SELECT id FROM r), EXISTS (SELECT 1 FROM r) FROM l
SELECT id = ANY (ARRAY[1, 2]), id = ANY ('{1,2}'), amount < ALL (ARRAY[1.5, 2]) FROM orders
SELECT id FROM orders WHERE amount > (SELECT avg(amount) FROM orders)
SELECT (SELECT id, name FROM customers)
SELECT id FROM orders WHERE customer_id IN (SELECT id, name FROM customers)
SELECT id FROM orders WHERE customer_id IN (SELECT name FROM customers)
SELECT id FROM orders WHERE amount > ANY (SELECT note FROM orders)
SELECT (SELECT nosuch FROM customers)
-- derived tables
SELECT * FROM (SELECT id, amount FROM orders) AS s
SELECT s.total FROM (SELECT sum(amount) AS total FROM orders) s
SELECT * FROM (SELECT id, amount * 2 FROM orders) s (a, b)
SELECT * FROM (SELECT id FROM orders) s (a, b)
SELECT x.id, y.id FROM (SELECT id FROM l) x JOIN (SELECT id FROM r) y USING (id)
SELECT * FROM (SELECT status, count(*) FROM orders GROUP BY status) g WHERE g.count > 1
SELECT * FROM (SELECT * FROM (SELECT id, note FROM orders) a) b
SELECT * FROM (SELECT 1, 2) s
SELECT * FROM (SELECT DISTINCT status FROM orders ORDER BY status LIMIT 3) d
SELECT * FROM (SELECT id FROM l UNION SELECT id FROM r) u
SELECT s.nosuch FROM (SELECT id FROM orders) s
-- VALUES
VALUES (1, 'a'), (2, 'b')
VALUES (1), (2.5)
VALUES (1, NULL), (NULL, 'x')
VALUES (1::int8), (2)
VALUES ('2024-01-01'::date), ('2024-01-01 10:00'::timestamp)
SELECT * FROM (VALUES (1, 'a'), (2, 'b')) AS v (n, s)
SELECT * FROM (VALUES (1, 'a'), (2, 'b')) AS v
SELECT v.column1 FROM (VALUES (1)) v
SELECT * FROM orders o JOIN (VALUES (1, 'x')) v (id, tag) USING (id)
SELECT id FROM orders WHERE id IN (VALUES (1), (2))
VALUES (1, 2), (3)
VALUES (1), ('x')
VALUES (id)
-- WITH
-- names PostgreSQL derives for result columns
SELECT count(*), count(1), sum(id) FROM orders
SELECT id + 1, -id, (id), ((id)) FROM orders
SELECT amount::int4, CAST(amount AS text), amount::numeric(5,1) FROM orders
SELECT CASE WHEN true THEN 1 END, coalesce(id, 1), nullif(id, 1), greatest(1, 2) FROM orders
SELECT ARRAY[1], tags[1], (tags)[1:1] FROM items
SELECT EXISTS (SELECT 1), (SELECT 1), 1 IN (SELECT 1) FROM orders
SELECT o.id, c.id, o.*, c.name FROM orders o, customers c
SELECT current_date, current_timestamp, localtime, current_user, user FROM orders
SELECT extract(day FROM due), position('a' IN note), substring(note FROM 1), trim(BOTH FROM note) FROM orders
SELECT id IS NULL, note LIKE 'x', NOT shipped, id BETWEEN 1 AND 2 FROM orders
SELECT 'x'::text, 1::int8, true, NULL, 'literal' FROM orders
SELECT id AS "?column?", id AS "", id AS "Mixed Case" FROM orders
SELECT ROW(1, 2), (1, 'a') FROM orders
SELECT payload -> 'a' AS j, payload ->> 'b' FROM events
SELECT t.id FROM orders AS t
-- more: parameters, errors
SELECT * FROM orders o, (SELECT * FROM items i WHERE i.order_id = o.id) x
SELECT note COLLATE "C" FROM orders
SELECT id FROM orders ORDER BY note COLLATE "C"
SELECT id FROM orders WHERE id = $1
SELECT id FROM orders WHERE amount > $1 AND status = $2
SELECT $1::int8, $2::text FROM orders
SELECT id FROM orders WHERE placed_at > $1 LIMIT $2
SELECT id + $1 FROM orders
SELECT id FROM orders WHERE note LIKE $1 OR due = $2
SELECT id FROM orders WHERE id IN ($1, $2)
SELECT id FROM orders WHERE tags_nope = $1
SELECT $1 FROM orders
SELECT $1 || note FROM orders
SELECT id FROM l, r
SELECT l.id FROM l, r WHERE id = 1
SELECT * FROM l WHERE x = 1
SELECT * FROM orders WHERE shipped = 'maybe'
SELECT amount + note FROM orders
SELECT status - 1 FROM orders
SELECT 'abc'::int4 FROM orders
SELECT placed_at + placed_at FROM orders
SELECT -status FROM orders
SELECT tags + 1 FROM items
SELECT payload + 1 FROM events
SELECT NOT id FROM orders
SELECT id FROM orders WHERE id = ANY (note)
SELECT coalesce(id, note) FROM orders
SELECT greatest(id, 'x', due) FROM orders
SELECT ARRAY[id, note] FROM orders
SELECT count(DISTINCT *) FROM orders
SELECT max(id, 2) FROM orders
SELECT DISTINCT ON (id) status FROM orders ORDER BY status
SELECT status, count(*) FROM orders GROUP BY status ORDER BY amount
SELECT * FROM orders ORDER BY 1 LIMIT 1 LIMIT 2
SELECT id FROM orders o WHERE o.id = orders.id
SELECT *
SELECT * FROM (SELECT 1)
SELECT 1 AS a, 2 AS a FROM orders ORDER BY a
SELECT id FROM orders GROUP BY id, nosuch
SELECT CASE FROM orders
SELECT id FROM orders WHERE
SELECT id FROM orders WHERE id IN ()
SELECT id FROM orders ORDER BY id NULLS
SELECT id::nosuchtype FROM orders
SELECT id::varchar(0) FROM orders
SELECT id::numeric(1001) FROM orders
SELECT id::numeric(5, 6) FROM orders
SELECT '2024-13-45'::date FROM orders
SELECT 'x'::bool FROM orders
SELECT '{1,x}'::int4[] FROM orders
SELECT 99999999999::int4 FROM orders
-- type resolution and type modifiers
SELECT coalesce(amount, amount), coalesce(amount, price), coalesce(amount, 1), coalesce(status, name), coalesce(status, note) FROM orders, items, customers
SELECT CASE WHEN shipped THEN amount ELSE price END, CASE WHEN shipped THEN amount ELSE 0 END, CASE WHEN shipped THEN status END FROM orders, items
SELECT CASE WHEN shipped THEN 'a' ELSE status END, CASE WHEN shipped THEN status ELSE 'a' END, CASE WHEN shipped THEN 1 ELSE customer_id END FROM orders
SELECT CASE WHEN shipped THEN due ELSE placed_at END, CASE WHEN shipped THEN 1.5 ELSE weight END FROM orders, items
SELECT amount FROM orders UNION SELECT price FROM items
SELECT amount FROM orders UNION SELECT 1.5
SELECT amount FROM orders UNION ALL SELECT balance FROM customers
SELECT status FROM orders UNION ALL SELECT kind FROM events
SELECT status FROM orders INTERSECT SELECT note FROM orders
SELECT note FROM orders EXCEPT SELECT status FROM orders
SELECT code FROM items UNION SELECT 'ab'
SELECT 'ab' UNION SELECT code FROM items
SELECT code FROM items UNION SELECT status FROM orders
SELECT amount::numeric(12,2) FROM orders UNION SELECT amount FROM orders
SELECT (SELECT amount FROM orders LIMIT 1), (SELECT status FROM orders LIMIT 1) FROM l
SELECT x FROM (SELECT amount AS x FROM orders) s
SELECT * FROM (SELECT amount, status, code FROM orders, items) s
VALUES ('a'::varchar(3)), ('b'::varchar(3))
VALUES ('a'::varchar(3)), ('b'::varchar(4))
VALUES (1.5::numeric(4,1)), (NULL)
SELECT * FROM (VALUES ('a'::varchar(3), 1.5::numeric(4,1))) v
SELECT note::char, note::character, note::char(1), note::bpchar, note::varchar FROM orders
SELECT took::interval day, took::interval hour to second(2), took::interval year to month, '1'::interval second(3) FROM events
SELECT amount::float4, amount::real, amount::double precision, amount::float(10), amount::float(30) FROM orders
SELECT id::smallint, id::integer, id::bigint, id::int, customer_id::numeric(20) FROM orders
SELECT ARRAY[status], ARRAY[status, name], ARRAY[amount, price], ARRAY[amount, 1], ARRAY[code] FROM orders, customers, items
SELECT amount::numeric(10,2)[], ARRAY[amount]::numeric(5,1)[], tags::varchar(3)[] FROM orders, items
SELECT (amount), (status)::varchar(20), (code) FROM orders, items
SELECT amount * 1, status || '', +amount, -amount FROM orders
SELECT min(amount), max(status), min(code), max(name) FROM orders, items, customers
SELECT sum(amount), avg(price), sum(balance) FROM orders, items, customers
SELECT array_agg(amount), array_agg(status) FROM orders
SELECT DISTINCT amount, status FROM orders
SELECT amount FROM orders ORDER BY 1 LIMIT 1
SELECT t.amount FROM big_orders t
SELECT status, max, n FROM status_counts
SELECT name, total FROM customer_totals
SELECT 1 AS x UNION SELECT 2.5
SELECT 1 UNION SELECT 2 UNION SELECT 3::int8
SELECT k FROM l INTERSECT SELECT k FROM r
SELECT NULL UNION SELECT NULL
SELECT 'a' UNION SELECT 'b'
SELECT NULL::varchar(5) UNION SELECT status FROM orders
SELECT due FROM orders UNION SELECT placed_at FROM orders
SELECT shipped FROM orders UNION SELECT id FROM orders
SELECT tags FROM items UNION SELECT tags FROM items
SELECT payload FROM events UNION ALL SELECT '{}'
SELECT o.*, * FROM orders o
SELECT *, id FROM l
SELECT l.*, r.* FROM l, r
SELECT count(*) FROM l, r WHERE l.id = r.id AND l.k = r.k
SELECT id FROM orders WHERE (customer_id, status) = (1, 'x')
SELECT id FROM orders WHERE (id, note) IN ((1, 'a'), (2, 'b'))
SELECT id FROM orders WHERE ROW(id, amount) < ROW(1, 2.0)
SELECT id FROM orders WHERE id IN (1, 2.5, customer_id)
SELECT id FROM orders WHERE note IN ('a', 'b', status)
SELECT id FROM orders WHERE status IN ('a', 'b')
SELECT id, note FROM orders WHERE note = ANY (ARRAY['a', 'b']) AND id <> ALL ('{1}')
SELECT id FROM orders WHERE amount BETWEEN SYMMETRIC 10 AND 1
SELECT id FROM orders WHERE note IS NOT DISTINCT FROM status
SELECT lower(status), lower(code), upper(name) FROM orders, items, customers
SELECT status || code, code || code, code || 1 FROM orders, items
SELECT code = status, code < note, status = name FROM orders, items, customers
SELECT length(code), char_length(status), octet_length(note), bit_length(name) FROM orders, items, customers
SELECT date_trunc('month', due), date_trunc('day', local_at), date_trunc('hour', took) FROM orders, events
SELECT extract(hour FROM took), extract(dow FROM due), extract(epoch FROM placed_at), date_part('year', local_at) FROM orders, events
SELECT due - interval '1 day', due + time '10:00', placed_at::time, at - local_at FROM orders, events
SELECT to_char(due, 'YYYY'), to_char(took, 'HH24'), to_char(id, '999'), to_char(weight, '9.9') FROM orders, events, items
SELECT round(weight::numeric, 2), round(score), trunc(weight), ceiling(price), floor(n) FROM items, events
SELECT id / customer_id, qty / qty, weight / price, price / qty, n % 2, customer_id % id FROM orders, items, events
SELECT abs(qty), abs(score), abs(weight), abs(n), -qty, -score FROM items, events
SELECT id & 1, customer_id | 2, qty # qty, ~id, id << 1, customer_id >> 2 FROM orders, items
SELECT 2 ^ id, weight ^ 2, amount ^ 2, |/ weight, @ amount FROM orders, items
SELECT score < weight, qty = id, customer_id > qty, n = amount, price <> weight FROM orders, items, events
SELECT nullif(status, 'x'), greatest(amount, price), least(status, name), greatest(amount, 1) FROM orders, items, customers
SELECT note::character varying(5), note::national character(3), amount::decimal(8,3) FROM orders
SELECT placed_at::timestamptz(3), placed_at::timestamp(0), local_at::time(2), took::interval FROM orders, events
SELECT status::name, note::bytea, note::uuid FROM orders
-- more grouping, ordering, set operations, subqueries, joins
SELECT status, count(*) FROM orders GROUP BY 2
SELECT status, count(*) FROM orders GROUP BY 1, status
SELECT status AS shipped FROM orders GROUP BY shipped
SELECT id + 1 AS id FROM orders GROUP BY id
SELECT amount * 2 FROM orders GROUP BY amount * 2
SELECT amount * 2 FROM orders GROUP BY amount
SELECT amount * 3 FROM orders GROUP BY amount * 2
SELECT count(*) FROM orders GROUP BY status, shipped HAVING bool_or(shipped)
SELECT max(id) FROM orders WHERE id > 1 HAVING min(id) < 5
SELECT status FROM orders GROUP BY status ORDER BY count(*) DESC
SELECT status FROM orders GROUP BY status ORDER BY max(amount)
SELECT status, count(*) AS c FROM orders GROUP BY status ORDER BY c
SELECT sum(amount) AS s FROM orders HAVING s > 1
SELECT count(*) FROM orders GROUP BY id HAVING id > 1
SELECT 1 FROM orders GROUP BY status HAVING count(DISTINCT note) > 1
SELECT string_agg(DISTINCT note, ',' ORDER BY note) FROM orders
SELECT string_agg(DISTINCT note, ',' ORDER BY id) FROM orders
SELECT count(*) FILTER (WHERE shipped) AS n, count(*) AS m FROM orders GROUP BY status
SELECT sum(sum(amount)) FROM orders GROUP BY status
SELECT array_agg(id) FILTER (WHERE shipped) FROM orders
SELECT DISTINCT ON (status, due) status, due FROM orders ORDER BY status, due, id
SELECT DISTINCT ON (status) * FROM orders ORDER BY status DESC NULLS LAST
SELECT id FROM orders ORDER BY shipped, 1 DESC, note NULLS FIRST LIMIT 10 OFFSET 5
SELECT id FROM orders ORDER BY id OFFSET 5 ROWS
SELECT id FROM orders ORDER BY id FETCH FIRST 5 PERCENT ROWS ONLY
SELECT * FROM l UNION SELECT * FROM r
SELECT * FROM l EXCEPT ALL SELECT id, y, k FROM r ORDER BY 3 DESC
SELECT l.id FROM l UNION SELECT r.id FROM r ORDER BY id NULLS FIRST LIMIT 1 OFFSET 1
(SELECT 1 AS a) UNION (SELECT 2) ORDER BY a FETCH FIRST 1 ROW ONLY
SELECT 1 UNION SELECT 2 LIMIT 1
SELECT id FROM (SELECT id FROM l INTERSECT ALL SELECT id FROM r) s WHERE id > 0
SELECT count(*) FROM (SELECT DISTINCT status FROM orders) s
SELECT * FROM (SELECT status, count(*) FROM orders GROUP BY 1) s (st, n) ORDER BY n
SELECT * FROM customers WHERE id IN (SELECT customer_id FROM orders GROUP BY customer_id HAVING count(*) > 2)
SELECT * FROM customers WHERE EXISTS (SELECT 1 FROM orders) AND NOT vip
SELECT name FROM customers WHERE balance > ALL (SELECT amount FROM orders WHERE shipped)
SELECT (SELECT (SELECT 1)) FROM orders
SELECT (SELECT count(*) FROM (SELECT 1) s) FROM orders
SELECT id FROM orders WHERE id IN (SELECT id FROM l UNION SELECT id FROM r)
SELECT x.a FROM (SELECT a FROM (VALUES (1), (2)) v (a)) x
SELECT * FROM (VALUES (1, 2.5, 'x', true, NULL)) v
VALUES (1, 'a') ORDER BY 1 LIMIT 1
VALUES (1), (2) UNION SELECT 3
SELECT * FROM orders WHERE (SELECT true)
SELECT * FROM orders WHERE id = (SELECT id FROM l)
SELECT * FROM l NATURAL JOIN l r2
SELECT * FROM l JOIN r USING (id) JOIN items ON items.order_id = id
SELECT * FROM l JOIN r USING (id) NATURAL JOIN orders
SELECT r.* FROM l RIGHT OUTER JOIN r ON l.k = r.k WHERE l.id IS NULL
SELECT * FROM l FULL JOIN r ON l.id = r.id AND l.k = r.k LEFT JOIN orders ON orders.id = r.id
SELECT count(*) FROM l CROSS JOIN r CROSS JOIN orders
SELECT * FROM l INNER JOIN r ON (l.id = r.id)
SELECT * FROM (l CROSS JOIN r) JOIN orders ON orders.id = l.id
SELECT * FROM l FULL JOIN r USING (id) WHERE id > 1
SELECT id FROM l NATURAL JOIN r WHERE x = y
SELECT * FROM l, r, orders WHERE l.id = r.id AND r.id = orders.id
SELECT * FROM l JOIN LATERAL (SELECT 1) s ON true
SELECT * FROM l NATURAL JOIN (SELECT id FROM r) s
SELECT * FROM l JOIN r USING (k)
SELECT * FROM customers JOIN orders USING (id)
SELECT * FROM l LEFT JOIN r ON true RIGHT JOIN orders ON true FULL JOIN items ON true
SELECT id, row_number() OVER (ORDER BY id) FROM orders
SELECT id, rank() OVER (PARTITION BY status ORDER BY amount DESC) FROM orders
SELECT id, sum(amount) OVER (PARTITION BY customer_id) FROM orders
SELECT id, avg(amount) OVER w FROM orders WINDOW w AS (ORDER BY id ROWS BETWEEN 1 PRECEDING AND CURRENT ROW)
SELECT id, lag(amount) OVER (ORDER BY id), lead(note, 2) OVER (ORDER BY id) FROM orders
SELECT id, dense_rank() OVER (ORDER BY status), ntile(4) OVER (ORDER BY id), first_value(note) OVER (ORDER BY id) FROM orders
SELECT count(*) OVER () FROM orders
SELECT sum(amount) FILTER (WHERE true) OVER () FROM orders
SELECT id FROM orders WHERE row_number() OVER () > 1
SELECT first_value(status) OVER w, last_value(amount) OVER w, nth_value(code, 2) OVER w FROM orders, items WINDOW w AS (ORDER BY id)
SELECT lag(amount, 1, 0) OVER (), lead(qty, 1, 0.5) OVER (), lag(status, 1, 'x') OVER () FROM orders, items
SELECT percent_rank() OVER (), cume_dist() OVER (ORDER BY amount), ntile(3) OVER () FROM orders
SELECT status, count(*), sum(count(*)) OVER (ORDER BY status), rank() OVER (ORDER BY max(amount)) FROM orders GROUP BY status
SELECT id, sum(amount) OVER (ORDER BY placed_at RANGE BETWEEN '1 day' PRECEDING AND CURRENT ROW) FROM orders
SELECT id, count(*) OVER (ORDER BY due RANGE BETWEEN '1 day' PRECEDING AND '2 days' FOLLOWING) FROM orders
SELECT id, array_agg(id) OVER (ORDER BY id GROUPS BETWEEN 1 PRECEDING AND 1 FOLLOWING EXCLUDE TIES) FROM orders
SELECT id FROM orders ORDER BY row_number() OVER (PARTITION BY status ORDER BY amount)
SELECT id, sum(id) OVER (ORDER BY status RANGE BETWEEN 1 PRECEDING AND CURRENT ROW) FROM orders
SELECT id, sum(id) OVER (ORDER BY id RANGE BETWEEN 'x' PRECEDING AND CURRENT ROW) FROM orders
SELECT id FROM orders GROUP BY id HAVING rank() OVER () > 1
SELECT id, (SELECT name FROM customers c WHERE c.id = o.customer_id) FROM orders o
SELECT id FROM orders o WHERE EXISTS (SELECT 1 FROM items i WHERE i.order_id = o.id)
SELECT id FROM orders o WHERE amount > (SELECT avg(amount) FROM orders o2 WHERE o2.status = o.status)
SELECT c.name FROM customers c WHERE c.id IN (SELECT customer_id FROM orders o WHERE o.amount > c.balance)
SELECT id FROM l WHERE k = ANY (SELECT k FROM r WHERE r.id = l.id)
SELECT (SELECT count(*) FROM items WHERE order_id = orders.id) AS n FROM orders
SELECT status, (SELECT max(amount) FROM orders o2 WHERE o2.status = o.status) FROM orders o GROUP BY status
SELECT * FROM orders o WHERE NOT EXISTS (SELECT * FROM customers c WHERE c.id = o.customer_id AND c.vip)
SELECT id FROM orders o WHERE id = (SELECT max(o.id))
SELECT id, (SELECT count(*) FROM items i WHERE i.order_id = o.id AND i.qty > (SELECT avg(qty) FROM items i2 WHERE i2.sku = i.sku)) FROM orders o
SELECT status, (SELECT count(*) FROM orders o2 WHERE o2.status = o.status AND o2.amount > max(o.amount)) FROM orders o GROUP BY status
SELECT status, (SELECT sum(o.amount)) FROM orders o GROUP BY status
SELECT id, amount > ALL (SELECT price FROM items WHERE order_id = o.id), id NOT IN (SELECT order_id FROM items WHERE sku = o.note) FROM orders o
SELECT id, (SELECT sku FROM items WHERE order_id = o.id ORDER BY price DESC LIMIT 1) FROM orders o
SELECT status, (SELECT count(*) FROM items WHERE order_id = o.id) FROM orders o GROUP BY status
SELECT id FROM orders o WHERE (SELECT count(*) FROM items WHERE order_id = o.id GROUP BY sku) > 1
-- WITH: CTEs over tables and views, shadowing, column aliases, errors
WITH orders AS (SELECT 1 AS x) SELECT * FROM orders
WITH t AS (SELECT id, amount FROM orders) SELECT * FROM t
WITH t (a, b) AS (SELECT id, amount FROM orders) SELECT * FROM t
WITH t AS (SELECT id FROM l), u AS (SELECT id FROM t) SELECT * FROM u
WITH t AS (SELECT status, sum(amount) AS s FROM orders GROUP BY status) SELECT status, s / 2 FROM t WHERE s > 10
WITH t AS MATERIALIZED (SELECT 1 AS one) SELECT one FROM t
WITH t AS NOT MATERIALIZED (SELECT * FROM customers) SELECT name FROM t
WITH t AS (SELECT id FROM l) SELECT * FROM t JOIN r USING (id)
WITH t AS (SELECT id FROM l) SELECT * FROM t a, t b
WITH t AS (SELECT 1) SELECT * FROM t UNION SELECT id FROM orders
WITH t (a, b) AS (SELECT id FROM orders) SELECT * FROM t
WITH t AS (SELECT 1), t AS (SELECT 2) SELECT * FROM t
WITH t AS (SELECT id FROM orders) SELECT nosuch FROM t
WITH RECURSIVE t (n) AS (SELECT id FROM orders UNION ALL SELECT n + 1 FROM t WHERE n < 10) SELECT * FROM t
WITH RECURSIVE t AS (SELECT id, customer_id FROM orders UNION SELECT o.id, t.customer_id FROM orders o JOIN t ON o.id = t.id + 1) SELECT * FROM t
WITH RECURSIVE t (n) AS (SELECT amount FROM orders UNION ALL SELECT n * 2 FROM t) SELECT n FROM t
WITH RECURSIVE t (n) AS (SELECT qty FROM items UNION ALL SELECT n + 1 FROM t) SELECT n FROM t
WITH c AS (SELECT * FROM customers) SELECT c.name, o.amount FROM c JOIN orders o ON o.customer_id = c.id
WITH v AS (SELECT * FROM big_orders) SELECT status, count(*) FROM v GROUP BY status
SELECT * FROM orders WHERE id IN (WITH t AS (SELECT order_id FROM items) SELECT order_id FROM t)
WITH t AS (SELECT id FROM orders) SELECT * FROM t AS x (a, b)
SELECT * FROM orders o, LATERAL (SELECT * FROM items i WHERE i.order_id = o.id) x
SELECT * FROM orders o CROSS JOIN LATERAL (SELECT count(*) FROM items i WHERE i.order_id = o.id) x
SELECT o.id, x.sku FROM orders o LEFT JOIN LATERAL (SELECT sku FROM items i WHERE i.order_id = o.id ORDER BY price DESC LIMIT 1) x ON true
SELECT * FROM orders o RIGHT JOIN LATERAL (SELECT o.id AS oid) x ON true
-- functions in FROM and set-returning functions in the select list
SELECT * FROM generate_series(1, 3)
SELECT * FROM generate_series(1, 3) AS g (n)
SELECT g FROM generate_series(1, 3) g
SELECT * FROM unnest(ARRAY[1, 2]) AS u (v)
SELECT * FROM items, unnest(tags) AS t (tag)
SELECT generate_series(1, 3) FROM items
SELECT unnest(tags) FROM items
SELECT generate_series(1, 3), unnest(tags) FROM items
SELECT * FROM orders o, generate_series(1, o.id) AS g
SELECT * FROM orders o CROSS JOIN LATERAL unnest(ARRAY[o.status, o.note]) WITH ORDINALITY AS u (s, n)
SELECT e.id, j.* FROM events e, jsonb_each(e.payload) j
SELECT e.id, j.value FROM events e, jsonb_array_elements_text(e.payload) j
SELECT i.sku, t.* FROM items i, unnest(i.tags, i.tags) t
SELECT id, generate_series(1, id), unnest(ARRAY[amount, amount * 2]) FROM orders
SELECT status, generate_series(1, count(*)::int) FROM orders GROUP BY status
SELECT jsonb_object_keys(payload) FROM events
SELECT * FROM items, generate_subscripts(tags, 1) s
SELECT * FROM orders WHERE id IN (SELECT generate_series(1, 10))
SELECT * FROM orders o LEFT JOIN generate_series(1, 3) g ON g = o.id
-- writes: parameters, RETURNING columns and binding errors
INSERT INTO l VALUES (1, 'a', 2)
INSERT INTO l (id, x) VALUES (1, 'a') RETURNING *
UPDATE l SET x = 'b' WHERE id = 1
UPDATE l SET x = 'b' RETURNING id, x
DELETE FROM l WHERE id = 1
DELETE FROM l RETURNING k
INSERT INTO l SELECT id, y, k FROM r
INSERT INTO nosuch VALUES (1)
INSERT INTO l (nosuch) VALUES (1)
INSERT INTO l VALUES ('x')
