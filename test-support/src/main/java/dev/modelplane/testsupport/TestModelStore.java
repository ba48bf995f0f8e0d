package dev.modelplane.testsupport;

import java.io.IOException;
import java.util.Map;

/**
 * A model store (an emulator or a test server) a test fills with files and points a BaseModel at: what the model's
 * {@code spec.storage} needs to read them, and the means to make a download slow or a file's announced checksum wrong.
 * Implementations reach the store on 127.0.0.1 only and stop only the processes they started.
 */
public interface TestModelStore extends AutoCloseable {
  /** The URI scheme, e.g. {@code oci}. */
  String scheme();

  /** {@code spec.storage.storageUri} of a model whose files lie under {@code prefix} (no leading or trailing slash). */
  String storageUri(String prefix);

  /** {@code spec.storage.parameters} a model needs to reach this store (its endpoint, region, …). */
  Map<String, String> parameters();

  /** The data of the Secret {@code spec.storage.key} names; empty when the store is read anonymously. */
  Map<String, String> secretData();

  /** Stores {@code data} as {@code prefix/path}. */
  void put(String prefix, String path, byte[] data) throws IOException;

  /**
   * Stores {@code data} as {@code prefix/path} while the store announces the size and checksum of
   * {@code announcedAs} (same length as {@code data}): a download of it must fail its checksum check.
   */
  void putWithWrongChecksum(String prefix, String path, byte[] data, byte[] announcedAs) throws IOException;

  /** Sends object contents at most this fast from now on (bytes per second; 0 for no limit). */
  void throttle(long bytesPerSecond);

  @Override
  void close() throws IOException;
}
