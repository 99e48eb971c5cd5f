package io.sparkdcp.store;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Path;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * A location of another scheme than {@code file:} ({@code hdfs:}, an object store's), through Hadoop's FileSystem of
 * that scheme with the defaults of Hadoop's configuration files. Its own permissions and durability are the file
 * system's: {@link Store.Access} is not applied, and {@link Output#sync} is hsync.
 */
final class HadoopStore implements Store {
    /** One for the JVM: each new one reads Hadoop's defaults again, which costs more than a part's read. */
    private static final class Conf {
        static final Configuration HADOOP = new Configuration();
    }

    private final FileSystem fs;

    HadoopStore(String location) throws IOException {
        FileSystem found = new Path(location).getFileSystem(Conf.HADOOP);
        // A local file system under another name: the raw one, with no .crc files beside what is written.
        fs = found instanceof LocalFileSystem checked ? checked.getRaw() : found;
    }

    @Override
    public boolean local() {
        return false;
    }

    @Override
    public String qualify(String location) {
        return fs.makeQualified(new Path(location)).toString();
    }

    @Override
    public String child(String dir, String name) {
        return new Path(new Path(dir), name).toString();
    }

    @Override
    public String name(String path) {
        return new Path(path).getName();
    }

    @Override
    public String parent(String path) {
        Path parent = new Path(path).getParent();
        return parent == null ? null : parent.toString();
    }

    @Override
    public boolean exists(String path) throws IOException {
        return fs.exists(new Path(path));
    }

    @Override
    public boolean isDirectory(String path) throws IOException {
        return fs.exists(new Path(path)) && fs.getFileStatus(new Path(path)).isDirectory();
    }

    @Override
    public List<Listed> list(String dir) throws IOException {
        List<Listed> names = new ArrayList<>();
        for (FileStatus s : fs.listStatus(new Path(dir))) names.add(new Listed(s.getPath().getName(), s.getLen(), s.isDirectory()));
        return names;
    }

    @Override
    public InputStream open(String file) throws IOException {
        return fs.open(new Path(file));
    }

    @Override
    public Output create(String file, Access access) throws IOException {
        return output(fs.create(new Path(file), true));
    }

    @Override
    public Output createNew(String file, Access access) throws IOException {
        try {
            return output(fs.create(new Path(file), false));
        } catch (org.apache.hadoop.fs.FileAlreadyExistsException e) {
            throw new java.nio.file.FileAlreadyExistsException(file);
        }
    }

    private static Output output(FSDataOutputStream out) {
        return new Output(out, out::hsync, out::close);
    }

    @Override
    public void mkdirs(String dir, Access access) throws IOException {
        if (!fs.mkdirs(new Path(dir))) throw new IOException("cannot make " + dir);
    }

    @Override
    public void rename(String from, String to) throws IOException {
        Path target = new Path(to);
        if (fs.exists(target) && !fs.getFileStatus(target).isDirectory()) fs.delete(target, false);
        if (!fs.rename(new Path(from), target)) throw new IOException("rename of " + from + " to " + to + " failed");
    }

    @Override
    public void delete(String path) throws IOException {
        fs.delete(new Path(path), true);
    }

    @Override
    public void makeDurable(String path) {
        // hsync made the bytes durable; a rename on these file systems is durable once it returns
    }
}
