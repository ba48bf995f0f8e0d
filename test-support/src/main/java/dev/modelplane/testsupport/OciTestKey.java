package dev.modelplane.testsupport;

import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.HexFormat;

/**
 * An OCI API key for tests: a fresh 2048-bit RSA key pair of a made-up tenancy and user, its private key as PEM
 * (PKCS#8, as {@code openssl genpkey} writes it) and its fingerprint (MD5 of the public key's DER, colon-separated
 * hex, as the OCI console shows it).
 *
 * @param tenancy the tenancy OCID
 * @param user the user OCID
 * @param keyPair the key pair
 */
public record OciTestKey(String tenancy, String user, KeyPair keyPair) {
  public static final String TENANCY = "ocid1.tenancy.oc1..aaaaaaaamodelplanetesttenancy";
  public static final String USER = "ocid1.user.oc1..aaaaaaaamodelplanetestuser";

  /** A new key of {@link #TENANCY} and {@link #USER}. */
  public static OciTestKey generate() {
    return generate(TENANCY, USER);
  }

  /** A new key of the given tenancy and user. */
  public static OciTestKey generate(String tenancy, String user) {
    try {
      KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
      generator.initialize(2048);
      return new OciTestKey(tenancy, user, generator.generateKeyPair());
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("the JDK cannot make RSA keys", e);
    }
  }

  /** The private key as a PEM {@code PRIVATE KEY} block. */
  public String privateKeyPem() {
    return pem("PRIVATE KEY", keyPair.getPrivate().getEncoded());
  }

  /** The public key as a PEM {@code PUBLIC KEY} block (what is uploaded to OCI). */
  public String publicKeyPem() {
    return pem("PUBLIC KEY", keyPair.getPublic().getEncoded());
  }

  /** The fingerprint, e.g. {@code 12:34:...:ef}. */
  public String fingerprint() {
    try {
      String hex = HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(keyPair.getPublic()
          .getEncoded()));
      return hex.replaceAll("(..)(?!$)", "$1:");
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("the JDK has no MD5", e);
    }
  }

  /** The key id of API key signing: {@code <tenancy>/<user>/<fingerprint>}. */
  public String keyId() {
    return tenancy + "/" + user + "/" + fingerprint();
  }

  private static String pem(String type, byte[] der) {
    return "-----BEGIN " + type + "-----\n" + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der)
        + "\n-----END " + type + "-----\n";
  }

  @Override
  public String toString() {
    return "OciTestKey[tenancy=" + tenancy + ", user=" + user + ", fingerprint=" + fingerprint() + "]";
  }
}
