-- The read-only KPI user Grafana (deploy/grafana) reads ajr's efficiency KPIs with.
-- Run as an administrator after `ajr db upgrade`, with the database name, user and password
-- changed to yours:  mysql -u root < deploy/sql/kpi_readonly_user.sql
-- It can read the per-job KPIs, the per-attempt records (failures by category) and the node
-- incidents (repeat-offender nodes), nothing else: not the decision records, no writes.
CREATE USER IF NOT EXISTS 'ajr_kpi'@'%' IDENTIFIED BY 'change-me';
GRANT SELECT ON `ajr`.`job_efficiency_records` TO 'ajr_kpi'@'%';
GRANT SELECT ON `ajr`.`attempt_records` TO 'ajr_kpi'@'%';
GRANT SELECT ON `ajr`.`node_incidents` TO 'ajr_kpi'@'%';
