package dev.modelplane.operator.common;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;

/** Kubernetes-safe names for the objects the operator creates. */
public final class Names {
  /** Longest DNS-1123 label: Service names, label values, container names. */
  public static final int MAX_LABEL = 63;

  private Names() {
  }

  /**
   * {@code base + "-" + suffix} when that fits in a DNS-1123 label, otherwise the first 8 hex digits of the SHA-256 of
   * {@code base} followed by {@code "-" + suffix}. Stable across calls, so an object keeps its name.
   */
  public static String child(String base, String suffix) {
    String name = suffix.isEmpty() ? base : base + "-" + suffix;
    if (name.length() <= MAX_LABEL) {
      return name;
    }
    String hashed = sha256Hex(base).substring(0, 8) + (suffix.isEmpty() ? "" : "-" + suffix);
    return hashed.length() <= MAX_LABEL ? hashed : hashed.substring(0, MAX_LABEL).replaceAll("-+$", "");
  }

  /** A DNS-1123 label from any text: lower case, [a-z0-9-], no leading or trailing dash, at most 63 characters. */
  public static String dnsLabel(String text) {
    String label = text.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9-]", "-").replaceAll("-{2,}", "-")
        .replaceAll("^-+", "").replaceAll("-+$", "");
    if (label.length() > MAX_LABEL) {
      label = label.substring(0, MAX_LABEL - 9).replaceAll("-+$", "") + "-" + sha256Hex(text).substring(0, 8);
    }
    return label.isEmpty() ? "x" + sha256Hex(text).substring(0, 8) : label;
  }

  /** The lower-case hexadecimal SHA-256 of a string's UTF-8 bytes. */
  public static String sha256Hex(String text) {
    try {
      MessageDigest digest = MessageDigest.getInstance("SHA-256");
      return HexFormat.of().formatHex(digest.digest(text.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every JDK", e);
    }
  }
}
