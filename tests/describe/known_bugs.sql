-- known_bugs.sql: queries where eddy claims the feature but describes them differently from
-- PostgreSQL 15: bugs, reported to the planner's owners, not missing features. They print as
-- "# known bug" lines with the difference on indented lines (shown by make test), counted
-- neither as passed nor failed so that make test stays green until the fix lands; run with
-- DESCRIBE_STRICT=1 to count them as failures. Once one agrees with PostgreSQL the runner says
-- so: move it to queries.sql then. "-- bug: TEXT" describes the bug for the lines below it.
-- bug: a WITH clause is ignored, so a CTE that shadows a table describes the table
WITH orders AS (SELECT 1 AS x) SELECT * FROM orders
