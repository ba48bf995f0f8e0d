package dev.modelplane.router.gatewayapi;

import dev.modelplane.router.pool.PoolKey;

/**
 * One weighted backend of a route rule.
 *
 * @param pool the InferencePool requests picked for this backend go to, or null when the reference is unusable
 * @param weight the backend's share of the rule's requests relative to its siblings; 0 means never picked
 * @param invalidReason why the reference is unusable (requests landing on it are answered with 500), or null
 */
public record Backend(PoolKey pool, int weight, String invalidReason) {}
