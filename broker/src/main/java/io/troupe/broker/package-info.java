/**
 * Sojourn-time brokers and regulators: a broker matches requests of its {@code ask} queue (clients) with
 * requests of its {@code askR} queue (workers) and answers each with {@code Go} or {@code Drop}; queue
 * policies (drop, timeout, CoDel, fair) shed load early, meters watch it (overload alarm, PIE protector,
 * update meter), and a regulator's valve decides how many requests may proceed at once.
 */
package io.troupe.broker;
