package dev.modelplane.operator.modelsource.fetch;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.MessageDigest;
import java.security.PrivateKey;
import java.security.interfaces.RSAPrivateCrtKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.RSAPublicKeySpec;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.crypto.Cipher;
import javax.crypto.EncryptedPrivateKeyInfo;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.PBEKeySpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Reads the RSA private keys OCI API keys come as: PEM {@code PRIVATE KEY} (PKCS#8), {@code RSA PRIVATE KEY}
 * (PKCS#1, also OpenSSL's passphrase-encrypted form with {@code DEK-Info}) and {@code ENCRYPTED PRIVATE KEY}
 * (PKCS#8 with PBES2, what OpenSSL 3 writes). Messages never contain key material or the passphrase.
 */
public final class PemKeys {
  private static final Pattern BLOCK = Pattern.compile(
      "-----BEGIN ([A-Z ]+)-----\\s*(.*?)-----END \\1-----", Pattern.DOTALL);
  private static final Pattern DEK_INFO = Pattern.compile("DEK-Info:\\s*([A-Z0-9-]+),([0-9A-Fa-f]+)");
  /** The DER of PKCS#8's AlgorithmIdentifier for rsaEncryption (OID 1.2.840.113549.1.1.1, NULL parameters). */
  private static final byte[] RSA_ALGORITHM = HexFormat.of().parseHex("300d06092a864886f70d0101010500");

  private PemKeys() {
  }

  /**
   * The private key in {@code pem}.
   *
   * @param passphrase the passphrase of an encrypted key; null or empty for none
   * @throws IllegalArgumentException when the text holds no RSA private key, or it is encrypted and the passphrase is
   *     missing or wrong
   */
  public static PrivateKey rsaPrivateKey(String pem, String passphrase) {
    Matcher block = BLOCK.matcher(pem);
    if (!block.find()) {
      throw new IllegalArgumentException("not a PEM private key (no -----BEGIN ... PRIVATE KEY----- block)");
    }
    String type = block.group(1);
    String body = block.group(2);
    boolean hasPassphrase = passphrase != null && !passphrase.isEmpty();
    try {
      return switch (type) {
        case "PRIVATE KEY" -> rsa(base64(body));
        case "RSA PRIVATE KEY" -> {
          Matcher dek = DEK_INFO.matcher(body);
          byte[] pkcs1;
          if (dek.find()) {
            if (!hasPassphrase) {
              throw new IllegalArgumentException("the private key is encrypted and no passphrase is given");
            }
            pkcs1 = openSslDecrypt(dek.group(1), HexFormat.of().parseHex(dek.group(2)), base64(body), passphrase);
          } else {
            pkcs1 = base64(body);
          }
          yield rsa(pkcs8(pkcs1));
        }
        case "ENCRYPTED PRIVATE KEY" -> {
          if (!hasPassphrase) {
            throw new IllegalArgumentException("the private key is encrypted and no passphrase is given");
          }
          EncryptedPrivateKeyInfo info = new EncryptedPrivateKeyInfo(base64(body));
          String algorithm = info.getAlgParameters().toString();
          Cipher cipher = Cipher.getInstance(algorithm);
          cipher.init(Cipher.DECRYPT_MODE, SecretKeyFactory.getInstance(algorithm)
              .generateSecret(new PBEKeySpec(passphrase.toCharArray())), info.getAlgParameters());
          yield rsa(info.getKeySpec(cipher).getEncoded());
        }
        default -> throw new IllegalArgumentException("a PEM '" + type + "' block is not an RSA private key");
      };
    } catch (GeneralSecurityException | java.io.IOException e) {
      throw new IllegalArgumentException(hasPassphrase ? "cannot read the private key (wrong passphrase?): "
          + e.getClass().getSimpleName() : "cannot read the private key: " + e.getClass().getSimpleName(), e);
    }
  }

  /**
   * The key's OCI fingerprint: the MD5 of its public key's DER (SubjectPublicKeyInfo), as colon-separated hex pairs,
   * as the OCI console shows it.
   */
  public static String fingerprint(PrivateKey key) {
    if (!(key instanceof RSAPrivateCrtKey crt)) {
      throw new IllegalArgumentException("the key has no public part to take a fingerprint of");
    }
    try {
      byte[] der = KeyFactory.getInstance("RSA").generatePublic(new RSAPublicKeySpec(crt.getModulus(),
          crt.getPublicExponent())).getEncoded();
      String hex = HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(der));
      return hex.replaceAll("(..)(?!$)", "$1:");
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("cannot take the key's fingerprint", e);
    }
  }

  private static PrivateKey rsa(byte[] pkcs8) throws GeneralSecurityException {
    return KeyFactory.getInstance("RSA").generatePrivate(new PKCS8EncodedKeySpec(pkcs8));
  }

  /** The base64 content of a PEM block, without its header lines ({@code Proc-Type}, {@code DEK-Info}). */
  private static byte[] base64(String text) {
    String clean = text.lines().filter(l -> !l.contains(":")).map(String::strip)
        .reduce("", String::concat);
    return Base64.getDecoder().decode(clean);
  }

  /** PKCS#1 RSAPrivateKey wrapped as PKCS#8 PrivateKeyInfo: SEQUENCE { 0, rsaEncryption, OCTET STRING }. */
  private static byte[] pkcs8(byte[] pkcs1) {
    ByteArrayOutputStream inner = new ByteArrayOutputStream();
    inner.writeBytes(new byte[] {2, 1, 0});
    inner.writeBytes(RSA_ALGORITHM);
    inner.writeBytes(der(0x04, pkcs1));
    return der(0x30, inner.toByteArray());
  }

  private static byte[] der(int tag, byte[] content) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(tag);
    int n = content.length;
    if (n < 0x80) {
      out.write(n);
    } else {
      int bytes = (32 - Integer.numberOfLeadingZeros(n) + 7) / 8;
      out.write(0x80 | bytes);
      for (int i = bytes - 1; i >= 0; i--) {
        out.write(n >>> (8 * i));
      }
    }
    out.writeBytes(content);
    return out.toByteArray();
  }

  /** OpenSSL's legacy PEM encryption: key from EVP_BytesToKey(MD5, salt = the IV's first 8 bytes, 1 round). */
  private static byte[] openSslDecrypt(String cipherName, byte[] iv, byte[] data, String passphrase)
      throws GeneralSecurityException {
    String name = cipherName.toUpperCase(Locale.ROOT);
    int keyLength;
    String algorithm;
    switch (name) {
      case "AES-128-CBC" -> { keyLength = 16; algorithm = "AES"; }
      case "AES-192-CBC" -> { keyLength = 24; algorithm = "AES"; }
      case "AES-256-CBC" -> { keyLength = 32; algorithm = "AES"; }
      case "DES-EDE3-CBC" -> { keyLength = 24; algorithm = "DESede"; }
      default -> throw new IllegalArgumentException("the private key is encrypted with " + cipherName
          + ", which is not supported (AES-128/192/256-CBC, DES-EDE3-CBC are)");
    }
    byte[] pass = passphrase.getBytes(StandardCharsets.UTF_8);
    byte[] salt = Arrays.copyOf(iv, 8);
    MessageDigest md5 = MessageDigest.getInstance("MD5");
    ByteArrayOutputStream key = new ByteArrayOutputStream();
    byte[] previous = new byte[0];
    while (key.size() < keyLength) {
      md5.update(previous);
      md5.update(pass);
      md5.update(salt);
      previous = md5.digest();
      key.writeBytes(previous);
    }
    Cipher cipher = Cipher.getInstance(algorithm + "/CBC/PKCS5Padding");
    cipher.init(Cipher.DECRYPT_MODE, new SecretKeySpec(Arrays.copyOf(key.toByteArray(), keyLength), algorithm),
        new IvParameterSpec(iv));
    return cipher.doFinal(data);
  }
}
