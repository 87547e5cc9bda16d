/* logp95--1.0--1.1.sql */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION logp95 UPDATE TO '1.1'" to load this file. \quit

-- Version 1.1: every SQL object added or changed after 1.0 was released.
-- CREATE EXTENSION logp95 runs logp95--1.0.sql and then this script, so a
-- fresh install and an updated one hold the same objects.
