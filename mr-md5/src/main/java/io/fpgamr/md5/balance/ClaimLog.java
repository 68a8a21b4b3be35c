package io.fpgamr.md5.balance;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileContext;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DistributedFileSystem;

/**
 * A job's log of work claims, on a file system every task of the job reaches (the job's own folder
 * in HDFS on YARN, the local file system under the local runner): entry {@code n} is written once,
 * by the first task that publishes it, and never changes, so every task that reads the log up to
 * {@code n} sees the same claims in the same order. An entry is a folder {@code log/<n>} holding one
 * empty folder whose name is the claim; it is made under a name of the publisher's own and renamed
 * to {@code log/<n>}, which succeeds for one publisher only:
 * <ul>
 *   <li>HDFS: the NameNode's rename without overwrite fails when the target exists, atomically
 *       (one RPC; the folders are namespace only, no DataNode is involved);
 *   <li>a local file system: rename(2) cannot replace a folder that is not empty, so of two
 *       publishers one gets an error (the local runner's maps are threads of one JVM; a local file
 *       system's create-if-absent through Hadoop's API is not atomic, this is).
 * </ul>
 * Other file systems are refused: their rename is not known to be exclusive.
 */
public abstract class ClaimLog {
    /**
     * A claim as its folder's name says it: task {@code t}, attempt {@code a}, {@code n} units claimed
     * (or {@code r} units released), at {@code ms}.
     */
    private static final Pattern NAME = Pattern.compile("t(\\d+)\\.a(\\d+)\\.([nr])(\\d+)\\.ms(\\d+)");

    /** Opens the log in {@code dir} (made if missing) for publisher {@code owner} (a task attempt id). */
    public static ClaimLog open(Configuration conf, Path dir, String owner) throws IOException {
        FileSystem fs = dir.getFileSystem(conf);
        if (fs instanceof DistributedFileSystem) {
            return new OnHdfs(conf, fs.makeQualified(dir), owner);
        }
        if ("file".equals(fs.getScheme())) {
            return new OnLocal(java.nio.file.Path.of(fs.makeQualified(dir).toUri()), owner);
        }
        throw new IOException("work claims need HDFS or a local file system for " + dir + ", not " + fs.getScheme()
            + ": its rename is not known to be exclusive");
    }

    /** Publishes {@code claim} as entry {@code seq}; false when another publisher has it. */
    public abstract boolean publish(long seq, Claim claim) throws IOException;

    /** Entry {@code seq}, or null while nobody has published it. */
    public abstract Claim read(long seq) throws IOException;

    static String name(Claim c) {
        return "t" + c.task() + ".a" + c.attempt() + (c.releases() ? ".r" : ".n") + c.units() + ".ms" + c.atMs();
    }

    static Claim parse(String name, Object where) throws IOException {
        Matcher m = NAME.matcher(name);
        if (!m.matches()) {
            throw new IOException("not a work claim: " + where + "/" + name);
        }
        return new Claim(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)), Long.parseLong(m.group(4)), Long.parseLong(m.group(5)),
            m.group(3).equals("r"));
    }

    private static final class OnHdfs extends ClaimLog {
        private final FileContext fc;
        private final Path log;
        private final Path tmp;
        private final String owner;

        OnHdfs(Configuration conf, Path dir, String owner) throws IOException {
            this.fc = FileContext.getFileContext(dir.toUri(), conf);
            this.log = new Path(dir, "log");
            this.tmp = new Path(dir, "tmp");
            this.owner = owner;
            fc.mkdir(log, FsPermission.getDirDefault(), true);
            fc.mkdir(tmp, FsPermission.getDirDefault(), true);
        }

        @Override
        public boolean publish(long seq, Claim claim) throws IOException {
            Path mine = new Path(tmp, owner + "-" + seq);
            fc.mkdir(new Path(mine, name(claim)), FsPermission.getDirDefault(), true);
            try {
                fc.rename(mine, new Path(log, Long.toString(seq)), Options.Rename.NONE);
                return true;
            } catch (org.apache.hadoop.fs.FileAlreadyExistsException e) {
                fc.delete(mine, true);
                return false;
            }
        }

        @Override
        public Claim read(long seq) throws IOException {
            Path entry = new Path(log, Long.toString(seq));
            FileStatus[] children;
            try {
                children = fc.util().listStatus(entry);
            } catch (FileNotFoundException e) {
                return null;
            }
            if (children.length != 1) {
                throw new IOException("work claim " + entry + " holds " + children.length + " entries, not one");
            }
            return parse(children[0].getPath().getName(), entry);
        }
    }

    private static final class OnLocal extends ClaimLog {
        private final java.nio.file.Path log;
        private final java.nio.file.Path tmp;
        private final String owner;

        OnLocal(java.nio.file.Path dir, String owner) throws IOException {
            this.log = dir.resolve("log");
            this.tmp = dir.resolve("tmp");
            this.owner = owner;
            Files.createDirectories(log);
            Files.createDirectories(tmp);
        }

        @Override
        public boolean publish(long seq, Claim claim) throws IOException {
            java.nio.file.Path mine = tmp.resolve(owner + "-" + seq);
            Files.createDirectories(mine.resolve(name(claim)));
            java.nio.file.Path entry = log.resolve(Long.toString(seq));
            try {
                Files.move(mine, entry);
                return true;
            } catch (FileAlreadyExistsException | DirectoryNotEmptyException e) {
                deleteTree(mine);
                return false;
            } catch (IOException e) {
                // rename(2) onto a folder that appeared meanwhile (not empty: someone's entry) fails too
                if (Files.isDirectory(entry)) {
                    deleteTree(mine);
                    return false;
                }
                throw e;
            }
        }

        @Override
        public Claim read(long seq) throws IOException {
            java.nio.file.Path entry = log.resolve(Long.toString(seq));
            try (Stream<java.nio.file.Path> children = Files.list(entry)) {
                java.util.List<java.nio.file.Path> all = children.toList();
                if (all.size() != 1) {
                    throw new IOException("work claim " + entry + " holds " + all.size() + " entries, not one");
                }
                return parse(all.get(0).getFileName().toString(), entry);
            } catch (NoSuchFileException e) {
                return null;
            }
        }

        private static void deleteTree(java.nio.file.Path p) throws IOException {
            try (Stream<java.nio.file.Path> walk = Files.walk(p)) {
                for (java.nio.file.Path q : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(q);
                }
            }
        }
    }
}
