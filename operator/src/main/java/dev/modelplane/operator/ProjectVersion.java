package dev.modelplane.operator;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/** The version of modelplane this operator was built as, and the image of that version. */
public final class ProjectVersion {
  /** Repository of modelplane's own image (the router and the operator share it). */
  public static final String IMAGE_REPOSITORY = "ghcr.io/modelplane/modelplane";
  private static final String VERSION = read();

  private ProjectVersion() {
  }

  /** The project version, e.g. {@code 0.1.0} (a {@code -SNAPSHOT} suffix removed, as the image tag has none). */
  public static String version() {
    return VERSION;
  }

  /** modelplane's image at this version. */
  public static String image() {
    return IMAGE_REPOSITORY + ":" + VERSION;
  }

  private static String read() {
    Properties properties = new Properties();
    try (InputStream in = ProjectVersion.class.getResourceAsStream("version.properties")) {
      if (in != null) {
        properties.load(in);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    String version = properties.getProperty("version", "0.0.0");
    return version.endsWith("-SNAPSHOT") ? version.substring(0, version.length() - "-SNAPSHOT".length()) : version;
  }
}
