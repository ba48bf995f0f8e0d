package dev.modelplane.controlplane;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;

/**
 * Writes kubeconfig files with embedded certificates for a user of one control plane, readable by their owner only
 * (they hold the user's private key).
 */
final class Kubeconfig {
  private Kubeconfig() {
  }

  static Path write(Path file, String server, Pki pki, String user) throws IOException {
    String text = """
        apiVersion: v1
        kind: Config
        clusters:
        - name: modelplane-dev
          cluster:
            server: %s
            certificate-authority-data: %s
        users:
        - name: %s
          user:
            client-certificate-data: %s
            client-key-data: %s
        contexts:
        - name: modelplane-dev
          context:
            cluster: modelplane-dev
            user: %s
            namespace: default
        current-context: modelplane-dev
        """.formatted(server, base64(pki.cert("ca")), user, base64(pki.cert(user)), base64(pki.key(user)), user);
    return PrivateFiles.write(file, text);
  }

  private static String base64(Path file) throws IOException {
    return Base64.getEncoder().encodeToString(Files.readAllBytes(file));
  }
}
