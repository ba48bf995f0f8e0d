package dev.modelplane.router.extproc;

import java.io.IOException;
import java.net.Socket;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedKeyManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The ext_proc server's certificate and key, swapped in place when {@code tls.crt}/{@code tls.key} change (GIE's
 * {@code --enable-cert-reload}): new handshakes use the new pair, open connections keep theirs. A pair that does not
 * load is logged and the previous one kept.
 */
final class ReloadingKeyManager extends X509ExtendedKeyManager implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ReloadingKeyManager.class);
  private static final String ALIAS = "ext-proc";

  /** One certificate chain and its key, with the file contents they came from. */
  private record Material(PrivateKey key, X509Certificate[] chain, String source) {
  }

  private volatile Material material;
  private ScheduledExecutorService watcher;

  ReloadingKeyManager(PrivateKey key, X509Certificate[] chain) {
    this.material = key == null ? null : new Material(key, chain, null);
  }

  /** Loads {@code dir/tls.crt} and {@code dir/tls.key}; false when they are unchanged since the last load. */
  boolean loadFrom(Path dir) throws IOException {
    String certPem = GrpcTls.read(dir.resolve("tls.crt"));
    String keyPem = GrpcTls.read(dir.resolve("tls.key"));
    String source = certPem + keyPem;
    Material current = material;
    if (current != null && source.equals(current.source())) {
      return false;
    }
    List<X509Certificate> chain;
    try {
      chain = GrpcTls.certificates(certPem);
    } catch (GeneralSecurityException e) {
      throw new IOException(dir.resolve("tls.crt") + ": " + e.getMessage(), e);
    }
    if (chain.isEmpty()) {
      throw new IOException(dir.resolve("tls.crt") + ": no PEM certificate found");
    }
    PrivateKey key;
    try {
      key = GrpcTls.privateKey(keyPem);
    } catch (IOException e) {
      throw new IOException(dir.resolve("tls.key") + ": " + e.getMessage(), e);
    }
    material = new Material(key, chain.toArray(X509Certificate[]::new), source);
    return true;
  }

  /** Re-reads the files every {@code interval} (Kubernetes swaps a mounted secret's files atomically). */
  void watch(Path dir, Duration interval) {
    watcher = Executors.newSingleThreadScheduledExecutor(r -> Thread.ofPlatform().daemon().name("cert-reload")
        .unstarted(r));
    watcher.scheduleWithFixedDelay(() -> {
      try {
        if (loadFrom(dir)) {
          LOG.atInfo().addKeyValue("path", dir).addKeyValue("subject", material.chain()[0].getSubjectX500Principal())
              .addKeyValue("not_after", material.chain()[0].getNotAfter().toInstant()).log("reloaded TLS certificate");
        }
      } catch (IOException | RuntimeException e) {
        LOG.atWarn().addKeyValue("path", dir).addKeyValue("error", e.getMessage())
            .log("cannot reload TLS certificate; keeping the previous one");
      }
    }, interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
  }

  X509Certificate certificate() {
    return material.chain()[0];
  }

  @Override
  public void close() {
    if (watcher != null) {
      watcher.shutdownNow();
    }
  }

  @Override
  public String chooseEngineServerAlias(String keyType, Principal[] issuers, SSLEngine engine) {
    return fits(keyType) ? ALIAS : null;
  }

  @Override
  public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
    return fits(keyType) ? ALIAS : null;
  }

  @Override
  public String[] getServerAliases(String keyType, Principal[] issuers) {
    return fits(keyType) ? new String[] {ALIAS} : null;
  }

  /** Whether the key suits the handshake's key type (the JDK asks per signature scheme: RSA, EC, RSASSA-PSS…). */
  private boolean fits(String keyType) {
    String algorithm = material.key().getAlgorithm();
    return keyType == null || keyType.equalsIgnoreCase(algorithm)
        || (keyType.equals("EC") && algorithm.equals("ECDSA"));
  }

  @Override
  public X509Certificate[] getCertificateChain(String alias) {
    return material.chain().clone();
  }

  @Override
  public PrivateKey getPrivateKey(String alias) {
    return material.key();
  }

  @Override
  public String[] getClientAliases(String keyType, Principal[] issuers) {
    return null;
  }

  @Override
  public String chooseClientAlias(String[] keyType, Principal[] issuers, Socket socket) {
    return null;
  }
}
