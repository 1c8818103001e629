-- pending.sql: queries PostgreSQL accepts (or rejects with another SQLSTATE) that eddy cannot
-- describe yet because a feature is missing. "-- pending: REASON" names the reason for the
-- queries below it. tests/describe/describe.py runs them and prints neutral "# pending" lines;
-- once one agrees with PostgreSQL it says so: move it to queries.sql then.
-- pending: ARRAY(subquery) (0A000)
SELECT ARRAY(SELECT 1), ARRAY(SELECT note FROM orders) FROM items
-- pending: row-valued IN (subquery) (42601 subquery has too many columns)
SELECT id FROM orders WHERE (id, customer_id) IN (SELECT id, k FROM l)
-- pending: GROUPING SETS, ROLLUP, CUBE and GROUP BY () (42601, 42883)
SELECT status, shipped, sum(amount) FROM orders GROUP BY ROLLUP (status, shipped)
SELECT status, sum(amount) FROM orders GROUP BY GROUPING SETS ((status), ())
SELECT status, count(*) FROM orders GROUP BY CUBE (status)
SELECT count(*) FROM orders GROUP BY ()
-- pending: columns functionally dependent on a grouped primary key (42803)
SELECT c.id, c.name, c.email FROM customers c GROUP BY c.id
-- pending: grammar: FROM ONLY, JOIN ... USING (...) AS alias, ORDER BY ... USING op, FETCH ... WITH TIES (42601)
SELECT * FROM ONLY customers
SELECT j.id FROM l JOIN r USING (id) AS j
SELECT id FROM orders ORDER BY upper(note) USING <
SELECT id FROM orders ORDER BY id FETCH FIRST 2 ROWS WITH TIES
-- pending: jsonb operators ? ?| ?& @> <@ || - #- (42883)
SELECT payload ? 'k', payload ?| ARRAY['a'], payload ?& ARRAY['b'] FROM events
SELECT payload @> '{"a": 1}', payload <@ '{}' FROM events
SELECT payload || '{}'::jsonb FROM events
SELECT payload - 'a', payload #- '{a}' FROM events
-- pending: json and jsonb functions (42883)
SELECT jsonb_array_length(payload), to_jsonb(kind), to_jsonb(id), jsonb_extract_path(payload, 'a') FROM events
SELECT jsonb_build_object('id', id), jsonb_build_array(id, kind) FROM events
SELECT to_json(id), row_to_json(ROW(id)), json_build_array(id, kind), json_build_object('k', kind) FROM events
-- pending: string functions overlay, regexp_match, regexp_matches, regexp_split_to_array (42883)
SELECT overlay(name PLACING 'x' FROM 1), overlay(name PLACING 'x' FROM 1 FOR 2) FROM customers
SELECT regexp_match(note, 'a'), regexp_matches(note, 'a'), regexp_split_to_array(note, ',') FROM orders
-- pending: aggregates stddev, variance, stddev_pop, var_samp, bit_and, bit_or (42883)
SELECT stddev(amount), variance(weight), stddev_pop(id), var_samp(qty) FROM orders, items
SELECT bit_and(id), bit_or(customer_id) FROM orders
-- pending: time with time zone (42704 type "timetz" does not exist)
SELECT '10:00+02'::timetz, '10:00'::time with time zone FROM events
SELECT local_at::timetz FROM events
