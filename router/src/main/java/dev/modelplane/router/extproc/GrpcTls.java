package dev.modelplane.router.extproc;

import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.GrpcSslContexts;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.netty.handler.ssl.SslContext;
import io.grpc.netty.shaded.io.netty.handler.ssl.SslContextBuilder;
import io.grpc.netty.shaded.io.netty.handler.ssl.SslProvider;
import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.math.BigInteger;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedTrustManager;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * TLS of the ext_proc gRPC server — GIE's EPP flags: {@code --secure-serving} (default on), {@code --cert-path} (a
 * directory holding {@code tls.crt} and {@code tls.key}; without it a self-signed certificate is made at start) and
 * {@code --enable-cert-reload} — and of client mode's channel to an external picker.
 */
public final class GrpcTls {
  private GrpcTls() {
  }

  /**
   * The ext_proc server's transport.
   *
   * @param secure TLS on (GIE's {@code --secure-serving}); off = plaintext
   * @param certPath directory with {@code tls.crt} and {@code tls.key} (PEM), or null for a self-signed certificate
   * @param reload re-read the files when they change
   */
  public record ServerTls(boolean secure, Path certPath, boolean reload) {
    public static final ServerTls PLAINTEXT = new ServerTls(false, null, false);
    public static final ServerTls SELF_SIGNED = new ServerTls(true, null, false);
  }

  /**
   * Client mode's channel to an external picker.
   *
   * @param tls TLS on; off = plaintext
   * @param caFile PEM bundle to verify the picker's certificate with, or null for the JDK's trust store
   * @param insecureSkipVerify accept any certificate (GIE's self-signed default cannot be verified)
   */
  public record ClientTls(boolean tls, Path caFile, boolean insecureSkipVerify) {
    public static final ClientTls PLAINTEXT = new ClientTls(false, null, false);
    public static final ClientTls SKIP_VERIFY = new ClientTls(true, null, true);
  }

  /** The server's TLS context over {@code keyManager}. */
  static SslContext serverContext(ReloadingKeyManager keyManager) throws IOException {
    return GrpcSslContexts.configure(SslContextBuilder.forServer(keyManager), SslProvider.JDK).build();
  }

  /** The key manager the server context uses. */
  static ReloadingKeyManager keyManager(ServerTls tls) throws IOException {
    try {
      if (tls.certPath() == null) {
        KeyPair pair = selfSignedKeyPair();
        return new ReloadingKeyManager(pair.getPrivate(), new X509Certificate[] {selfSigned(pair)});
      }
      ReloadingKeyManager km = new ReloadingKeyManager(null, null);
      km.loadFrom(tls.certPath());
      return km;
    } catch (GeneralSecurityException | OperatorCreationException e) {
      throw new IOException("cannot set up TLS: " + e.getMessage(), e);
    }
  }

  /** A plaintext or TLS channel to an external picker. */
  public static ManagedChannel channel(String target, ClientTls tls) throws IOException {
    NettyChannelBuilder builder = NettyChannelBuilder.forTarget(target);
    if (!tls.tls()) {
      return builder.usePlaintext().build();
    }
    SslContextBuilder ssl = GrpcSslContexts.forClient();
    if (tls.insecureSkipVerify()) {
      ssl.trustManager(new AcceptAnyCertificate());
    } else if (tls.caFile() != null) {
      try {
        KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
        store.load(null, null);
        int i = 0;
        for (X509Certificate c : certificates(Files.readString(tls.caFile()))) {
          store.setCertificateEntry("ca-" + i++, c);
        }
        if (i == 0) {
          throw new IOException(tls.caFile() + ": no PEM certificate found");
        }
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(store);
        ssl.trustManager(tmf);
      } catch (GeneralSecurityException e) {
        throw new IOException(tls.caFile() + ": " + e.getMessage(), e);
      }
    }
    return builder.sslContext(ssl.build()).build();
  }

  static KeyPair selfSignedKeyPair() throws GeneralSecurityException {
    // ECDSA P-256: made in milliseconds (an RSA key can take seconds on a busy node) and accepted by every gRPC and
    // Envoy TLS stack.
    KeyPairGenerator gen = KeyPairGenerator.getInstance("EC");
    gen.initialize(new java.security.spec.ECGenParameterSpec("secp256r1"), new SecureRandom());
    return gen.generateKeyPair();
  }

  /** A certificate for {@code pair}, signed by itself, valid for ten years (GIE's self-signed one is too). */
  static X509Certificate selfSigned(KeyPair pair) throws GeneralSecurityException, OperatorCreationException {
    X500Name name = new X500Name("CN=modelplane-router,O=modelplane");
    Instant now = Instant.now();
    JcaX509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(name,
        new BigInteger(63, new SecureRandom()), Date.from(now.minus(Duration.ofHours(1))),
        Date.from(now.plus(Duration.ofDays(3650))), name, pair.getPublic());
    try {
      builder.addExtension(Extension.subjectAlternativeName, false, new GeneralNames(new GeneralName[] {
          new GeneralName(GeneralName.dNSName, "localhost"), new GeneralName(GeneralName.iPAddress, "127.0.0.1")}));
    } catch (IOException e) {
      throw new GeneralSecurityException(e);
    }
    X509CertificateHolder holder = builder.build(new JcaContentSignerBuilder("SHA256withECDSA").build(
        pair.getPrivate()));
    return new JcaX509CertificateConverter().getCertificate(holder);
  }

  /** Every certificate of a PEM text. */
  static List<X509Certificate> certificates(String pem) throws IOException, GeneralSecurityException {
    List<X509Certificate> out = new ArrayList<>();
    try (PEMParser parser = new PEMParser(new StringReader(pem))) {
      for (Object o; (o = parser.readObject()) != null; ) {
        if (o instanceof X509CertificateHolder holder) {
          out.add(new JcaX509CertificateConverter().getCertificate(holder));
        }
      }
    }
    return out;
  }

  /** The private key of a PEM text: PKCS#8, PKCS#1 (RSA) or SEC 1 (EC). */
  static PrivateKey privateKey(String pem) throws IOException {
    try (Reader r = new StringReader(pem); PEMParser parser = new PEMParser(r)) {
      JcaPEMKeyConverter converter = new JcaPEMKeyConverter();
      for (Object o; (o = parser.readObject()) != null; ) {
        if (o instanceof PEMKeyPair pair) {
          return converter.getPrivateKey(pair.getPrivateKeyInfo()); // SEC 1 keys may omit the public key
        }
        if (o instanceof PrivateKeyInfo info) {
          return converter.getPrivateKey(info);
        }
      }
    }
    throw new IOException("no PEM private key found");
  }

  static String read(Path file) throws IOException {
    return new String(Files.readAllBytes(file), StandardCharsets.US_ASCII);
  }

  /** Client mode's {@code --epp-insecure-skip-verify}: trusts any server certificate, checks no host name. */
  private static final class AcceptAnyCertificate extends X509ExtendedTrustManager {
    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket) {
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket) {
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType) {
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType) {
    }

    @Override
    public X509Certificate[] getAcceptedIssuers() {
      return new X509Certificate[0];
    }
  }
}
