package dev.modelplane.router.extproc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.StringWriter;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.cert.X509Certificate;
import java.util.Base64;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.junit.jupiter.api.Test;

/** The PEM encodings a Kubernetes TLS secret may hold, and the self-signed certificate. */
class GrpcTlsTest {
  private static String pem(Object o) throws IOException {
    StringWriter w = new StringWriter();
    try (JcaPEMWriter pem = new JcaPEMWriter(w)) {
      pem.writeObject(o);
    }
    return w.toString();
  }

  @Test
  void privateKeysInPkcs1Pkcs8AndSec1AreRead() throws Exception {
    KeyPairGenerator rsa = KeyPairGenerator.getInstance("RSA");
    rsa.initialize(2048);
    KeyPair rsaPair = rsa.generateKeyPair();
    String pkcs1 = pem(rsaPair.getPrivate());
    assertThat(pkcs1).contains("BEGIN RSA PRIVATE KEY");
    assertThat(GrpcTls.privateKey(pkcs1)).isEqualTo(rsaPair.getPrivate());
    String pkcs8 = "-----BEGIN PRIVATE KEY-----\n"
        + Base64.getMimeEncoder(64, "\n".getBytes()).encodeToString(rsaPair.getPrivate().getEncoded())
        + "\n-----END PRIVATE KEY-----\n";
    assertThat(GrpcTls.privateKey(pkcs8)).isEqualTo(rsaPair.getPrivate());
    // As `openssl ecparam -name prime256v1 -genkey -noout` writes it (a throwaway test key).
    String sec1 = """
        -----BEGIN EC PRIVATE KEY-----
        MHcCAQEEIBqR3hkcVq8nRUZ0U4MKhxWCwu/D9YE7sbEqwT6U6EyloAoGCCqGSM49
        AwEHoUQDQgAE+WR2437Yv6lxwGc7kUk1cEofjTwBOLilXhj1Lpja9lytc2TxHVIz
        u/94P9+tbbB4T1+fommPabAxKh2fol2jpg==
        -----END EC PRIVATE KEY-----
        """;
    assertThat(GrpcTls.privateKey(sec1).getAlgorithm()).isIn("EC", "ECDSA");
    assertThatThrownBy(() -> GrpcTls.privateKey("not a key")).hasMessageContaining("no PEM private key found");
  }

  @Test
  void theSelfSignedCertificateNamesTheRouterAndLoopbackAndVerifiesItself() throws Exception {
    KeyPair pair = GrpcTls.selfSignedKeyPair();
    X509Certificate cert = GrpcTls.selfSigned(pair);
    cert.verify(pair.getPublic());
    cert.checkValidity();
    assertThat(cert.getSubjectX500Principal().getName()).contains("CN=modelplane-router");
    assertThat(cert.getSubjectAlternativeNames()).extracting(l -> l.get(1).toString())
        .contains("localhost", "127.0.0.1");
    assertThat(GrpcTls.certificates(pem(cert) + pem(cert))).hasSize(2).first().isEqualTo(cert);
  }
}
