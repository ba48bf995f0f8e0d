package dev.modelplane.cli.devcluster;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/** A cluster held in maps, keyed {@code namespace/name} (endpoints {@code namespace/name:port}). */
final class FakeClusterView implements ClusterView {
  final Map<String, Path> claims = new HashMap<>();
  final Map<String, Map<String, byte[]>> configMaps = new HashMap<>();
  final Map<String, Map<String, byte[]>> secrets = new HashMap<>();
  final Map<String, String> endpoints = new HashMap<>();

  FakeClusterView secret(String key, String k, String v) {
    secrets.computeIfAbsent(key, x -> new HashMap<>()).put(k, v.getBytes(StandardCharsets.UTF_8));
    return this;
  }

  FakeClusterView configMap(String key, String k, String v) {
    configMaps.computeIfAbsent(key, x -> new HashMap<>()).put(k, v.getBytes(StandardCharsets.UTF_8));
    return this;
  }

  @Override
  public Optional<Path> claimDirectory(String namespace, String name) {
    return Optional.ofNullable(claims.get(namespace + "/" + name));
  }

  @Override
  public Optional<Map<String, byte[]>> configMap(String namespace, String name) {
    return Optional.ofNullable(configMaps.get(namespace + "/" + name));
  }

  @Override
  public Optional<Map<String, byte[]>> secret(String namespace, String name) {
    return Optional.ofNullable(secrets.get(namespace + "/" + name));
  }

  @Override
  public Optional<String> endpoint(String namespace, String name, int port) {
    return Optional.ofNullable(endpoints.get(namespace + "/" + name + ":" + port));
  }
}
