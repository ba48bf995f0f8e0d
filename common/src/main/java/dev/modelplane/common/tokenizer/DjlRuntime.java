package dev.modelplane.common.tokenizer;

import java.nio.file.Path;
import java.util.Map;

/**
 * Settings DJL reads before its first use, made here so no process depends on its launcher to set them. Hugging
 * Face tokenizers run through DJL's JNI binding, which by default may reach the network: it reports usage
 * ("telemetry", after asking a cloud instance's metadata service where it runs) and downloads a CUDA build of its
 * native library when it sees a GPU. We set
 * <ul>
 *   <li>{@code ai.djl.offline=true}: no downloads and no usage report;
 *   <li>{@code OPT_OUT_TRACKING=true}: no usage report, also should offline mode be lifted;
 *   <li>{@code RUST_FLAVOR=cpu}: the CPU library inside the jar, never a CUDA one;
 *   <li>{@code DJL_CACHE_DIR}, unless the environment or a system property already names one:
 *       {@code <java.io.tmpdir>/modelplane-djl-<user>}, where the native library is unpacked on first use (the image's
 *       home directory is not writable; its {@code /tmp} is).
 * </ul>
 * DJL reads the environment before system properties, so an environment that sets {@code DJL_OFFLINE} or
 * {@code OPT_OUT_TRACKING} to anything but {@code true} would undo the first two: loading a tokenizer then fails,
 * saying so.
 */
final class DjlRuntime {
  private static boolean prepared;

  private DjlRuntime() {
  }

  /** Applies the settings once; call before any DJL class is used. */
  static synchronized void prepare() {
    prepare(System.getenv());
  }

  static synchronized void prepare(Map<String, String> env) {
    for (String name : new String[] {"DJL_OFFLINE", "OPT_OUT_TRACKING"}) {
      String v = env.get(name);
      if (v != null && !"true".equalsIgnoreCase(v.trim())) {
        throw new TokenizerException("the environment sets " + name + "=" + v + ", which would let the tokenizer "
            + "library reach the network; unset it or set it to true");
      }
    }
    if (prepared) {
      return;
    }
    System.setProperty("ai.djl.offline", "true");
    System.setProperty("OPT_OUT_TRACKING", "true");
    System.setProperty("RUST_FLAVOR", "cpu");
    if (env.get("DJL_CACHE_DIR") == null && System.getProperty("DJL_CACHE_DIR") == null) {
      String user = System.getProperty("user.name", "user").replaceAll("[^A-Za-z0-9_.-]", "_");
      System.setProperty("DJL_CACHE_DIR",
          Path.of(System.getProperty("java.io.tmpdir"), "modelplane-djl-" + user).toString());
    }
    prepared = true;
  }
}
