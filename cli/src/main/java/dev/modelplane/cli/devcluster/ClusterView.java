package dev.modelplane.cli.devcluster;

import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/** What a job pod's containers read from the cluster: volumes' directories, ConfigMaps, Secrets, endpoints. */
interface ClusterView {
  /** The local directory of the volume bound to claim {@code name}, if it is bound to a directory volume. */
  Optional<Path> claimDirectory(String namespace, String name);

  /** A ConfigMap's data and binary data, if it exists. */
  Optional<Map<String, byte[]>> configMap(String namespace, String name);

  /** A Secret's data (decoded), if it exists. */
  Optional<Map<String, byte[]>> secret(String namespace, String name);

  /**
   * A ready endpoint of Service {@code name} for the service port {@code port} ({@code host:port}), if the Service
   * and its EndpointSlices have one.
   */
  Optional<String> endpoint(String namespace, String name, int port);
}
