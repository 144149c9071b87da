// node server.js PORT: the boardgame.io server (in-memory storage, lobby API on the same port),
// listening on 127.0.0.1:PORT only.
const { Server } = require('boardgame.io/server');
const { SecretGame } = require('./game');

const port = Number(process.argv[2] || 8001);
const server = Server({ games: [SecretGame], origins: ['http://127.0.0.1', 'http://localhost'] });
const listen = server.app.listen.bind(server.app);
server.app.listen = (onPort, callback) => listen(onPort, '127.0.0.1', callback); // loopback, not every interface
server.run(port, () => console.log(`boardgame.io on http://127.0.0.1:${port}`));
