package io.fpgamr.md5.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The armhf root an ARM node runs its containers' JVM from: what its containers are given, and a missing root named in one line. */
class ArmhfRootTest {
    @TempDir
    Path tmp;

    @Test
    void aMissingRootIsNamedWithHowToMakeIt() {
        Path none = tmp.resolve("no-root");
        assertEquals("ARM nodes need an armhf root with a JVM at " + none.resolve("usr/lib/jvm/java-17-openjdk-armhf")
            + ": run bin/armhf-root as root once (make test does)",
            assertThrows(IllegalArgumentException.class, () -> ArmhfRoot.find(Map.of(ArmhfRoot.ENV, none.toString()))).getMessage());
    }

    @Test
    void theContainersRunTheRootsJvmOnAnEmulatedCortexA9() {
        ArmhfRoot r = new ArmhfRoot(Path.of("/dev/shm/r"));
        assertEquals(Map.of("JAVA_HOME", "/dev/shm/r/usr/lib/jvm/java-17-openjdk-armhf", "QEMU_LD_PREFIX", "/dev/shm/r", "QEMU_CPU", "cortex-a9"),
            r.containerEnv());
    }
}
