package dev.modelplane.operator.ome.modelagent;

import dev.modelplane.operator.modelsource.fetch.OciSigner;
import dev.modelplane.operator.modelsource.fetch.PemKeys;
import java.security.PrivateKey;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Reads OCI credentials from the Secret {@code spec.storage.key} names, in either of two shapes, with the key names of
 * OCI's own configuration:
 *
 * <ul>
 *   <li>one key per value: {@code tenancy}, {@code user}, {@code fingerprint}, {@code key} (the private key PEM;
 *       {@code key_file} is accepted for the same content), optionally {@code pass_phrase} and {@code region}; for a
 *       session token, {@code security_token} and {@code key} (tenancy, user and fingerprint are then not needed);</li>
 *   <li>a whole OCI config file under {@code config} (the profile {@code storage.parameters.profile}, else
 *       {@code DEFAULT}) with the files it names beside it: {@code key_file=/etc/oci/oci_api_key.pem} is read from the
 *       Secret's key {@code oci_api_key.pem}, {@code security_token_file} likewise; the shape genai-bench reads when
 *       the same Secret is mounted at {@code /etc/oci}.</li>
 * </ul>
 *
 * Messages name the Secret, its namespace and the keys, never a value.
 */
final class OciCredentials {
  /** A credential problem: {@code reason} is {@code MissingCredentials} or {@code InvalidCredentials}. */
  static final class Problem extends Exception {
    private final String reason;

    Problem(String reason, String message) {
      super(message);
      this.reason = reason;
    }

    String reason() {
      return reason;
    }
  }

  /** What signs the requests, and the region the credentials name (if any). */
  record Credentials(OciSigner signer, Optional<String> region) {
  }

  private OciCredentials() {
  }

  /**
   * The credentials in a Secret's data.
   *
   * @param sessionToken true to sign with a session token ({@code auth: security_token}), false for the API key, null
   *     to take what the Secret holds (the API key when it names a user)
   * @param profile the config file's profile
   */
  static Credentials read(String secret, String namespace, Map<String, String> data, Boolean sessionToken,
      String profile) throws Problem {
    String where = "Secret '" + secret + "' in namespace '" + namespace + "'";
    Map<String, String> values = new java.util.HashMap<>();
    String keyName = "key";
    String tokenName = "security_token";
    Optional<String> configText = value(data, "config");
    if (configText.isPresent()) {
      String secretWhere = where;
      Map<String, String> section = OciConfigFile.parse(configText.get()).profile(profile).orElseThrow(() ->
          new Problem("MissingCredentials", secretWhere + ": the OCI config file under key 'config' has no profile ["
              + profile + "] (spec.storage.parameters.profile)"));
      values.putAll(section);
      keyName = Optional.ofNullable(section.get("key_file")).map(OciCredentials::baseName).orElse("key");
      tokenName = Optional.ofNullable(section.get("security_token_file")).map(OciCredentials::baseName)
          .orElse("security_token");
      where += " (config profile [" + profile + "])";
    } else {
      for (String k : List.of("tenancy", "user", "fingerprint", "region", "pass_phrase")) {
        value(data, k).ifPresent(v -> values.put(k, v));
      }
      value(data, "passphrase").ifPresent(v -> values.putIfAbsent("pass_phrase", v));
      if (value(data, "key").isEmpty() && value(data, "key_file").filter(v -> v.contains("-----BEGIN")).isPresent()) {
        keyName = "key_file";
      }
    }
    Optional<String> pem = value(data, keyName);
    Optional<String> token = value(data, tokenName);
    boolean useToken = sessionToken != null ? sessionToken : !values.containsKey("user") && token.isPresent();
    List<String> missing = new ArrayList<>();
    if (pem.isEmpty()) {
      missing.add(keyName);
    }
    if (useToken && token.isEmpty()) {
      missing.add(tokenName);
    }
    if (!useToken) {
      for (String k : List.of("tenancy", "user", "fingerprint")) {
        if (!values.containsKey(k) || values.get(k).isBlank()) {
          missing.add(configText.isPresent() ? k + " (in the config profile)" : k);
        }
      }
    }
    if (!missing.isEmpty()) {
      throw new Problem("MissingCredentials", where + " lacks " + String.join(", ", missing) + " for OCI "
          + (useToken ? "session token" : "API key") + " signing (keys: " + (configText.isPresent() ? "config and "
          + "the files it names" : "tenancy, user, fingerprint, key[, pass_phrase] or security_token and key")
          + ")");
    }
    PrivateKey key;
    try {
      key = PemKeys.rsaPrivateKey(pem.get(), values.get("pass_phrase"));
    } catch (IllegalArgumentException e) {
      throw new Problem("InvalidCredentials", where + " key '" + keyName + "': " + e.getMessage());
    }
    Optional<String> region = Optional.ofNullable(values.get("region")).filter(r -> !r.isBlank());
    if (useToken) {
      return new Credentials(new OciSigner(OciSigner.sessionKeyId(token.get()), key), region);
    }
    String fingerprint = values.get("fingerprint").toLowerCase(Locale.ROOT);
    String actual = PemKeys.fingerprint(key);
    if (!actual.equals(fingerprint)) {
      throw new Problem("InvalidCredentials", where + ": fingerprint " + fingerprint + " is not the fingerprint of "
          + "the private key under '" + keyName + "' (" + actual + ")");
    }
    return new Credentials(new OciSigner(OciSigner.apiKeyId(values.get("tenancy"), values.get("user"), fingerprint),
        key), region);
  }

  private static String baseName(String path) {
    String p = path.strip().replace('\\', '/');
    return p.substring(p.lastIndexOf('/') + 1);
  }

  private static Optional<String> value(Map<String, String> data, String key) {
    return Optional.ofNullable(data.get(key)).map(String::strip).filter(v -> !v.isEmpty());
  }
}
