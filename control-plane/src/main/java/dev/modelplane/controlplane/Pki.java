package dev.modelplane.controlplane;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Certificates and keys for one control plane, made with the {@code openssl} command: a CA, the apiserver's serving
 * certificate for 127.0.0.1/localhost, client certificates per component, and the service-account signing key. The
 * directory and the private keys are readable by their owner only.
 */
final class Pki {
  final Path dir;

  private Pki(Path dir) {
    this.dir = dir;
  }

  static Pki create(Path dir) throws IOException {
    PrivateFiles.directory(dir);
    Pki pki = new Pki(dir);
    pki.openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "30", "-subj", "/CN=modelplane-dev-ca",
        "-keyout", pki.key("ca").toString(), "-out", pki.cert("ca").toString());
    Path serving = dir.resolve("serving.ext");
    Files.writeString(serving, "subjectAltName=IP:127.0.0.1,DNS:localhost,IP:" + ControlPlane.KUBERNETES_SERVICE_IP
        + ",DNS:kubernetes,DNS:kubernetes.default,DNS:kubernetes.default.svc\nextendedKeyUsage=serverAuth\n");
    Path client = dir.resolve("client.ext");
    Files.writeString(client, "extendedKeyUsage=clientAuth\n");
    pki.sign("apiserver", "/CN=kube-apiserver", serving);
    pki.sign("admin", "/O=system:masters/CN=modelplane-admin", client);
    pki.sign("controller-manager", "/CN=system:kube-controller-manager", client);
    pki.sign("scheduler", "/CN=system:kube-scheduler", client);
    // Front-proxy CA and client: request-header authentication, which the controller-manager and scheduler look
    // up for their delegated authentication (without it they complain every few seconds).
    pki.openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "30", "-subj",
        "/CN=modelplane-dev-front-proxy-ca", "-keyout", pki.key("front-proxy-ca").toString(),
        "-out", pki.cert("front-proxy-ca").toString());
    pki.sign("front-proxy-client", "/CN=front-proxy-client", client, "front-proxy-ca");
    pki.openssl("genrsa", "-out", pki.key("sa").toString(), "2048");
    pki.openssl("rsa", "-in", pki.key("sa").toString(), "-pubout", "-out", dir.resolve("sa.pub").toString());
    try (var files = Files.list(dir)) {
      for (Path key : files.filter(f -> f.getFileName().toString().endsWith(".key")).toList()) {
        PrivateFiles.restrict(key);
      }
    }
    return pki;
  }

  Path cert(String name) {
    return dir.resolve(name + ".crt");
  }

  Path key(String name) {
    return dir.resolve(name + ".key");
  }

  private void sign(String name, String subject, Path extensions) throws IOException {
    sign(name, subject, extensions, "ca");
  }

  private void sign(String name, String subject, Path extensions, String ca) throws IOException {
    Path csr = dir.resolve(name + ".csr");
    openssl("req", "-newkey", "rsa:2048", "-nodes", "-subj", subject, "-keyout", key(name).toString(),
        "-out", csr.toString());
    openssl("x509", "-req", "-in", csr.toString(), "-CA", cert(ca).toString(), "-CAkey", key(ca).toString(),
        "-CAcreateserial", "-days", "30", "-out", cert(name).toString(), "-extfile", extensions.toString());
  }

  private void openssl(String... args) throws IOException {
    List<String> command = new ArrayList<>();
    command.add("openssl");
    command.addAll(List.of(args));
    Process process;
    try {
      process = new ProcessBuilder(command).redirectErrorStream(true).start();
    } catch (IOException e) {
      throw new IOException("the control plane needs the 'openssl' command to make its certificates "
          + "(Debian: apt-get install openssl)", e);
    }
    try {
      byte[] output = process.getInputStream().readAllBytes();
      if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
        throw new IOException("openssl " + args[0] + " failed: " + new String(output));
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    }
  }
}
