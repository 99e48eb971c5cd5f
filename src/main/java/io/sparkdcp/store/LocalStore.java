package io.sparkdcp.store;


import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * This machine's file system through java.nio: no Hadoop class, no process (Hadoop's local
 * file system starts a shell for each chmod). A file is made with its final permissions in the open that creates it,
 * masked by the umask; nothing follows a symlink at the last name of what is written or removed.
 */
final class LocalStore implements Store {
    static final LocalStore INSTANCE = new LocalStore();
    private static final int BUFFER = 1 << 16;

    private LocalStore() {}

    @Override
    public boolean local() {
        return true;
    }

    @Override
    public String qualify(String location) throws IOException {
        return path(location).toAbsolutePath().toString();
    }

    /** A plain path, or a {@code file:} URI without a host (or with localhost): its path as written, no escapes decoded. */
    private static Path path(String location) throws IOException {
        if (!location.regionMatches(true, 0, "file:", 0, 5)) return Path.of(location);
        String rest = location.substring(5);
        if (rest.startsWith("//")) {
            int slash = rest.indexOf('/', 2);
            String host = slash < 0 ? rest.substring(2) : rest.substring(2, slash);
            if (!host.isEmpty() && !host.equalsIgnoreCase("localhost"))
                throw new IOException(location + " names host " + host + ": a file: location is on this machine (file:/PATH or file:///PATH)");
            rest = slash < 0 ? "/" : rest.substring(slash);
        }
        return Path.of(rest.isEmpty() ? "." : rest);
    }

    @Override
    public String child(String dir, String name) {
        return dir.endsWith("/") ? dir + name : dir + "/" + name;
    }

    @Override
    public String name(String path) {
        Path name = Path.of(path).getFileName();
        return name == null ? "" : name.toString();
    }

    @Override
    public String parent(String path) {
        Path parent = Path.of(path).getParent();
        return parent == null ? null : parent.toString();
    }

    @Override
    public boolean exists(String path) throws IOException {
        return Files.exists(path(path));
    }

    @Override
    public boolean isDirectory(String path) throws IOException {
        return Files.isDirectory(path(path));
    }

    @Override
    public List<Listed> list(String dir) throws IOException {
        List<Listed> names = new ArrayList<>();
        try (DirectoryStream<Path> in = Files.newDirectoryStream(path(dir))) {
            for (Path p : in) {
                BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
                names.add(new Listed(p.getFileName().toString(), a.size(), a.isDirectory()));
            }
        }
        return names;
    }

    @Override
    public InputStream open(String file) throws IOException {
        return Files.newInputStream(path(file));
    }

    @Override
    public Output create(String file, Access access) throws IOException {
        return write(file, access, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING);
    }

    @Override
    public Output createNew(String file, Access access) throws IOException {
        return write(file, access, StandardOpenOption.CREATE_NEW);
    }

    private Output write(String file, Access access, OpenOption... how) throws IOException {
        Path path = path(file);
        if (path.getParent() != null) mkdirs(path.getParent().toString(), access);
        Set<OpenOption> options = new java.util.HashSet<>(List.of(how));
        options.add(StandardOpenOption.WRITE);
        options.add(LinkOption.NOFOLLOW_LINKS);
        FileChannel channel = FileChannel.open(path, options, permissions(access, false));
        BufferedOutputStream out = new BufferedOutputStream(Channels.newOutputStream(channel), BUFFER);
        return new Output(out, () -> {
            out.flush();
            channel.force(true);
        }, () -> {
            try (channel) {
                out.flush();
            }
        });
    }

    @Override
    public void mkdirs(String dir, Access access) throws IOException {
        Path path = path(dir);
        if (Files.isDirectory(path)) return;
        Path parent = path.toAbsolutePath().getParent();
        if (parent != null) mkdirs(parent.toString(), access);
        try {
            Files.createDirectory(path, permissions(access, true));
        } catch (java.nio.file.FileAlreadyExistsException e) {
            if (!Files.isDirectory(path)) throw e;
        }
    }

    private static FileAttribute<Set<PosixFilePermission>> permissions(Access access, boolean directory) {
        String bits = switch (access) {
            case SHARED -> directory ? "rwxr-xr-x" : "rw-r--r--";
            case OWNER -> directory ? "rwx------" : "rw-------";
        };
        return PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString(bits));
    }

    @Override
    public void rename(String from, String to) throws IOException {
        Files.move(path(from), path(to), StandardCopyOption.ATOMIC_MOVE);
    }

    @Override
    public void delete(String path) throws IOException {
        Path root = path(path);
        if (!Files.exists(root, LinkOption.NOFOLLOW_LINKS)) return;
        Files.walkFileTree(root, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                Files.deleteIfExists(file);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path dir, IOException e) throws IOException {
                if (e != null && !(e instanceof NoSuchFileException)) throw e;
                Files.deleteIfExists(dir);
                return FileVisitResult.CONTINUE;
            }
        });
    }

    @Override
    public void makeDurable(String path) throws IOException {
        // A directory opened for reading is fsynced as a file is (Linux): through java.nio, a run that copies no data
        // binds none of libc's data calls for it.
        try (FileChannel channel = FileChannel.open(path(path), StandardOpenOption.READ)) {
            channel.force(true);
        }
    }
}
